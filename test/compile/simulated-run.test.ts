import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobIdsOf } from '../../src/compile/job-ids.js';
import { Redactor } from '../../src/redact.js';
import { COMPILED_RERUN, formatGithubSummary } from '../../src/report/github/github-summary.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { compile, planOf } from './compiled.js';
import { simulateWorkflow } from './simulate.js';

// Artifacts from a file and from stdout, an injected artifact, a dependency's output, an optional step that fails.
const DIAMOND = `kind: WavePipeline
metadata: { name: diamond }
input: { default: hello }
steps:
  - id: make
    exec: { type: command, source: "printf '%s world' {{ input }} > greeting.txt; echo made" }
    output_artifacts: [{ name: greeting, path: greeting.txt }]
  - id: count-words
    dependencies: [make]
    memory: { inject_artifacts: [{ step: make, artifact: greeting, as: g.txt }] }
    exec: { type: command, source: "wc -w < {{ artifacts.g.txt }} | tr -d ' '" }
    output_artifacts: [{ name: words, source: stdout }]
  - id: flaky.check
    dependencies: [make]
    optional: true
    exec: { type: command, source: "exit 3" }
  - id: report
    dependencies: [count-words, flaky.check]
    exec: { type: command, source: "printf '{\\"words\\": %s}' {{ steps.count-words.output }} > report.json" }
    output_artifacts: [{ name: report, path: report.json, type: json }]
`;

// A required failure under continue: its dependent is skipped, the independent step still runs.
const BROKEN = `kind: WavePipeline
metadata: { name: broken }
steps:
  - id: base
    exec: { type: command, source: "echo base" }
  - id: fails
    dependencies: [base]
    exec: { type: command, source: "echo no >&2; exit 1" }
  - id: after
    dependencies: [fails]
    exec: { type: command, source: "echo never" }
  - id: aside
    dependencies: [base]
    exec: { type: command, source: "echo aside" }
    output_artifacts: [{ name: out, source: stdout }]
`;

// Contracts that fail without stopping the run: \`continue\` fails the step but its dependent runs (with its output),
// \`warn\` passes it; a step whose contract could continue but whose command fails blocks its dependent.
const CONTRACTS = `kind: WavePipeline
metadata: { name: contracts }
steps:
  - id: draft
    exec: { type: command, source: "echo drafted" }
    handover:
      contract: { type: non_empty_file, source: missing.md, on_failure: continue }
  - id: revise
    dependencies: [draft]
    exec: { type: command, source: "echo revised {{ steps.draft.output }}" }
    output_artifacts: [{ name: revised, source: stdout }]
  - id: lint
    exec: { type: command, source: "echo linted" }
    handover:
      contract: { type: test_suite, command: "exit 1", on_failure: warn }
  - id: ship
    dependencies: [revise, lint]
    exec: { type: command, source: "echo shipped" }
  - id: gate
    exec: { type: command, source: "exit 2" }
    handover:
      contract: { type: non_empty_file, source: missing.md, on_failure: continue }
  - id: gated
    dependencies: [gate]
    exec: { type: command, source: "echo never" }
`;

/** What must agree between a run of the workflow and `wave run`: statuses, artifacts byte for byte, totals. */
function comparable(record: RunRecord, runDir: string) {
  return {
    status: record.status,
    tokens: record.tokens,
    costUsd: record.costUsd,
    steps: Object.fromEntries(
      Object.values(record.steps).map((s) => [
        s.id,
        {
          status: s.status,
          optional: s.optional,
          skipReason: s.skipReason,
          failure: s.failure?.class,
          tokens: s.tokens,
          artifacts: s.artifacts.map((a) => ({ name: a.name, path: a.path, bytes: a.bytes, content: readFileSync(join(runDir, a.path)).toString('base64') })),
        },
      ]),
    ),
  };
}

describe.each([
  ['diamond', DIAMOND, 'halt', 0],
  ['broken', BROKEN, 'continue', 1],
  ['contracts', CONTRACTS, 'continue', 1],
] as const)('the compiled workflow of %s, its jobs run one by one', (name, text, onFailure, exitCode) => {
  let project: string;
  beforeAll(() => {
    project = makeProject({ [`pipelines/${name}.yaml`]: text });
  });

  it('assembles the run record `wave run` records', { timeout: 120_000 }, async () => {
    const plan = await planOf(join(project, 'wave.yaml'), join(project, `pipelines/${name}.yaml`));
    const sim = await simulateWorkflow(compile(plan, project, onFailure), project, plan.input);
    const finalDir = join(sim.folders.get('run-record')!, '.wave/runs', sim.runId);
    const assembled = JSON.parse(readFileSync(join(finalDir, 'run.json'), 'utf8')) as RunRecord;

    const local = makeProject({ [`pipelines/${name}.yaml`]: text });
    const ran = await runWave(['run', `pipelines/${name}.yaml`, '--on-failure', onFailure, '--output', 'quiet'], { cwd: local });
    expect(ran.code).toBe(exitCode);
    const [runId] = readdirSync(join(local, '.wave/runs'));
    const localDir = join(local, '.wave/runs', runId!);
    const reference = JSON.parse(readFileSync(join(localDir, 'run.json'), 'utf8')) as RunRecord;

    expect(comparable(assembled, finalDir)).toEqual(comparable(reference, localDir));
    // A job fails exactly when its step failed the run (a `continue` contract's failure included).
    const jobIds = jobIdsOf(plan.steps.map((s) => s.id));
    for (const step of Object.values(reference.steps))
      expect([step.id, sim.results.get(jobIds.get(step.id)!) === 'failure']).toEqual([step.id, step.status === 'failed' && !step.optional]);
    expect(sim.outputs.get('run-record')).toBe(`run-id=${sim.runId}\nstatus=${reference.status}\n`);
    expect(sim.results.get('run-record')).toBe(exitCode === 0 ? 'success' : 'failure');

    // The final job's summary is the action's: the steps table, the timeline, the totals of the assembled run.
    const summary = sim.summaries.get('run-record')!;
    expect(summary).toBe(formatGithubSummary(assembled, { redactor: new Redactor([]), runDir: finalDir, resume: 'compiled' }));
    expect(summary).toContain(`## Wave run \`${sim.runId}\`: ${name} ${reference.status}`);
    for (const step of Object.values(reference.steps)) expect(summary).toContain(`| \`${step.id}\` | ${step.status} |`);
    expect(summary).toContain('```mermaid\ngantt');
    expect(summary).toContain(`- Run id: \`${sim.runId}\``);
    // A failed run is run again by GitHub's re-run of its failed jobs; `wave resume` means nothing after the jobs.
    expect(summary.includes(`- Run it again: ${COMPILED_RERUN}`)).toBe(reference.status === 'failed');
    expect(summary).not.toContain('wave resume');
    expect(sim.logs.get('run-record')!.includes(`run it again: ${COMPILED_RERUN}`)).toBe(reference.status === 'failed');
    expect(sim.logs.get('run-record')).not.toContain('wave resume');
    expect([...sim.summaries.keys()]).toEqual(['run-record']);
  });
});
