import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runDirs } from '../support/runs.js';
import { param, type LoggedRequest, type ModelServer } from './agents.js';

// What the real-Claude composition tests share: child pipelines of one Claude step, and how their runs are read.

/** A child pipeline whose one Claude step (persona `copier`, scenario copy/out.txt) writes `<<text>>` into out.txt, its one output `name`. */
export function copierPipeline(pipeline: string, text: string, name = 'note'): string {
  return `kind: WavePipeline
metadata: { name: ${pipeline} }
steps:
  - id: write
    persona: copier
    exec: { type: prompt, source: "Write <<${text}>> into out.txt." }
    output_artifacts: [{ name: ${name}, path: out.txt }]
pipeline_outputs:
  ${name}: { step: write, artifact: ${name} }
`;
}

/** A pipeline whose step `each` runs `child` once per item (`iterate`: its keys, inside braces) with `input`; `after`: its next steps. */
export function iteratePipeline(name: string, iterate: string, child: string, input: string, after = ''): string {
  return `kind: WavePipeline\nmetadata: { name: ${name} }\nsteps:\n  - id: each\n    iterate: { ${iterate} }\n    pipeline: ${child}\n    input: ${input}\n${after}`;
}

/** A pipeline of one Claude step as `persona`, whose prompt is `prompt`. */
export function agentPipeline(pipeline: string, persona: string, prompt: string): string {
  return `kind: WavePipeline\nmetadata: { name: ${pipeline} }\nsteps:\n  - id: work\n    persona: ${persona}\n    exec: { type: prompt, source: "${prompt}" }\n`;
}

/** Every run record of the project as it is on disk now (a run being created may have no run.json yet). */
export function recordsOf(project: string): RunRecord[] {
  return runDirs(project).flatMap((dir) => (existsSync(join(dir, 'run.json')) ? [JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord] : []));
}

/** The one run of `pipeline` in the project (the parent's own when several: the one without a parent). */
export function runOf(project: string, pipeline: string): RunRecord {
  const runs = recordsOf(project).filter((r) => r.pipeline === pipeline);
  const run = runs.find((r) => !r.parentId) ?? runs[0];
  if (!run) throw new Error(`no run of ${pipeline} in ${project}`);
  return run;
}

/** The record of run `id`. */
export function recordOf(project: string, id: string): RunRecord {
  return JSON.parse(readFileSync(join(project, '.wave', 'runs', id, 'run.json'), 'utf8')) as RunRecord;
}

/** A file of run `id`'s folder. */
export function runFile(project: string, id: string, path: string): string {
  return readFileSync(join(project, '.wave', 'runs', id, path), 'utf8');
}

/** The text of artifact `name` of a run's step. */
export function stepArtifact(project: string, record: RunRecord, stepId: string, name: string): string {
  const artifact = record.steps[stepId]?.artifacts.find((a) => a.name === name);
  if (!artifact) throw new Error(`step ${stepId} of ${record.id} kept no artifact ${name}`);
  return artifact.path.startsWith('/') ? readFileSync(artifact.path, 'utf8') : runFile(project, record.id, artifact.path);
}

/** The URL of the server's `rounds` scenario: Claude writes `file` with the first of `texts` in its first run, the next in the next (the last from then on). */
export function roundsUrl(server: ModelServer, file: string, texts: readonly string[]): string {
  return `${server.url}/s/rounds/${encodeURIComponent(file)}/${param(JSON.stringify(texts))}`;
}

/** The model requests whose conversation holds `text` (a child's task, say). */
export function requestsHolding(requests: readonly LoggedRequest[], text: string): LoggedRequest[] {
  return requests.filter((r) => r.body !== undefined && JSON.stringify(r.body).includes(text));
}

/** Live processes (zombies aside) whose environment says they were started for run `runId`. */
export function processesOfRun(runId: string): number[] {
  const mark = `WAVE_RUN_ID=${runId}`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const zombie = /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        return !zombie && readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(mark);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The pids a run's step wrote in its attempt folders as each attempt started (run.json, a snapshot, may lag behind them). */
export function attemptPids(project: string, runId: string, stepId: string): number[] {
  const stepDir = join(project, '.wave', 'runs', runId, 'steps', stepId);
  return readdirSync(stepDir)
    .filter((name) => name.startsWith('attempt-') && existsSync(join(stepDir, name, 'pid')))
    .map((name) => Number(readFileSync(join(stepDir, name, 'pid'), 'utf8')));
}
