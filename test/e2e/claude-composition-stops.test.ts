import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWave, startWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { marker, processesWith } from '../support/sandbox.js';
import { isAlive, waitFor } from '../support/wait.js';
import { claudeManifest, cliAvailable, param, startModelServer, type ModelServer } from './agents.js';
import { agentPipeline, attemptPids, copierPipeline, iteratePipeline, processesOfRun, recordOf, recordsOf, requestsHolding, runFile, runOf, stepArtifact } from './composition.js';

// Child runs of the real Claude Code stopped from outside: `wave run` killed with -9 and resumed, and Ctrl-C.

const available = cliAvailable('claude');

/** The `sleep <number>` processes (not the shells around them) started with this marker. */
const sleeping = (number: string): string[] => processesWith(number).filter((line) => /^\s*\d+ sleep /.test(line));

describe.skipIf(!available)('claude: child runs stopped from outside', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  /** A project whose `waiter` persona's Claude runs `command` with its Bash tool, and `copier` writes what its task quotes. */
  const projectWith = (command: (project: string) => string, pipelines: Record<string, string>): string => {
    const project = makeProject(pipelines);
    const manifest = claudeManifest(
      { copier: `${server.url}/s/copy/out.txt`, waiter: `${server.url}/s/shell/${param(command(project))}` },
      '  copier: { adapter: copier }\n  waiter: { adapter: waiter }',
      '  max_concurrency: 2\n',
    );
    writeFileSync(join(project, 'wave.yaml'), manifest);
    return project;
  };

  it('after a kill -9 of `wave run` mid-child, `wave resume` keeps the finished child and finishes the running one', async () => {
    const sleep = marker();
    const parent = `kind: WavePipeline
metadata: { name: parent }
steps:
  - id: a
    pipeline: first
    input: one
  - id: b
    pipeline: second
    dependencies: [a]
`;
    const project = projectWith((dir) => `test -e ${dir}/go || sleep ${sleep}; echo waited`, {
      'pipelines/first.yaml': copierPipeline('first', 'first {{ input }}'),
      'pipelines/second.yaml': agentPipeline('second', 'waiter', 'Wait for the go.'),
      'pipelines/parent.yaml': parent,
    });
    const wave = startWave(['run', 'parent', '--output', 'text'], { cwd: project, timeout: 280_000 });
    // The first child is done and the second's Claude is in its Bash tool's sleep.
    await waitFor(() => sleeping(sleep).length === 1, "the second child's Claude to run its command", 120_000);
    wave.kill('SIGKILL');
    await wave;
    const first = runOf(project, 'first');
    const second = runOf(project, 'second');
    expect(first.status).toBe('completed');
    expect(second.status).toBe('running');
    const firstAsked = requestsHolding(server.requests, '<<first one>>').length;
    expect(firstAsked).toBeGreaterThan(0);
    const orphans = attemptPids(project, second.id, 'work');
    expect(orphans).toHaveLength(1);
    // The kill -9 reached only `wave run`: the second child's Claude and its sleep may live on (Claude stops by itself
    // once it writes to the pipe nobody reads, sooner on a loaded machine); the resume must leave none either way.

    writeFileSync(join(project, 'go'), '');
    const resumed = await runWave(['resume', runOf(project, 'parent').id, '--output', 'text'], { cwd: project, timeout: 280_000 });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const done = runOf(project, 'parent');
    expect(done.status).toBe('completed');
    // The finished child was not run again: no new run, no new model request for its task; the other finished under its id.
    expect(requestsHolding(server.requests, '<<first one>>')).toHaveLength(firstAsked);
    expect(
      recordsOf(project)
        .map((r) => r.pipeline)
        .sort(),
    ).toEqual(['first', 'parent', 'second']);
    expect(done.steps.a!.children).toEqual([{ runId: first.id, pipeline: 'first', status: 'completed' }]);
    expect(done.steps.b!.children).toEqual([{ runId: second.id, pipeline: 'second', status: 'completed' }]);
    expect(stepArtifact(project, done, 'a', 'note')).toBe('first one');
    const finished = recordOf(project, second.id);
    expect(finished.steps.work!.status).toBe('completed');
    // Its killed attempt was run again as a second one, a new Claude process.
    const pids = attemptPids(project, second.id, 'work');
    expect(pids).toHaveLength(2);
    expect(pids[1]).not.toBe(orphans[0]);
    expect(runFile(project, second.id, 'steps/work/output.txt')).toContain('The command ran: waited');
    // The killed run's Claude and its sleep were stopped by the resume, not left running.
    for (const pid of orphans) expect(isAlive(pid)).toBe(false);
    expect(sleeping(sleep)).toEqual([]);
    expect(processesOfRun(second.id)).toEqual([]);
  }, 280_000);

  it('Ctrl-C while two children run cancels both: their records end cancelled and no Claude process is left', async () => {
    const sleep = marker();
    const fanned = iteratePipeline('fanned', `over: '["x","y"]', mode: parallel`, 'sleeper', '"{{ item }}"');
    // Claude's Bash tool refuses a bare long sleep; behind a test it runs.
    const project = projectWith((dir) => `test -e ${dir}/go || sleep ${sleep}`, {
      'pipelines/sleeper.yaml': agentPipeline('sleeper', 'waiter', 'Sleep on {{ input }}.'),
      'pipelines/fanned.yaml': fanned,
    });
    const wave = startWave(['run', 'fanned', '--output', 'text'], { cwd: project, timeout: 280_000 });
    await waitFor(() => sleeping(sleep).length === 2, "both children's Claude to run their command", 120_000);
    const children = recordsOf(project).filter((r) => r.pipeline === 'sleeper');
    expect(children).toHaveLength(2);
    const pids = children.flatMap((r) => attemptPids(project, r.id, 'work'));
    expect(pids).toHaveLength(2);
    for (const child of children) expect(processesOfRun(child.id).length).toBeGreaterThan(0);
    wave.kill('SIGINT');
    const ended = await wave;
    expect(ended.exitCode).toBe(130);
    const parent = runOf(project, 'fanned');
    expect(parent.status).toBe('cancelled');
    expect(parent.steps.each!.status).toBe('cancelled');
    for (const child of children) {
      const record = recordOf(project, child.id);
      expect(record.status).toBe('cancelled');
      expect(record.steps.work!.status).toBe('cancelled');
      expect(processesOfRun(child.id)).toEqual([]);
    }
    // Each Claude process group is gone, the sleep its Bash tool started included.
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(sleeping(sleep)).toEqual([]);
  }, 280_000);
});
