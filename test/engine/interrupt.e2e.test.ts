import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WAVE_BIN, runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { isAlive, waitFor } from '../support/wait.js';

/** a -> b (slow, records its pid) -> c; each appends to a counter file in the project. */
function project(): string {
  const dir = makeProject({});
  const count = (id: string) => `echo run >> ${join(dir, `${id}.count`)}`;
  const pipeline = `kind: WavePipeline
metadata: { name: chain }
steps:
  - id: a
    exec: { type: command, source: "${count('a')}; echo A > a.txt" }
    output_artifacts: [{ name: a, path: a.txt }]
  - id: b
    dependencies: [a]
    memory: { inject_artifacts: [{ step: a, artifact: a }] }
    exec: { type: command, source: "${count('b')}; echo $$ > ${join(dir, 'b.pid')}; if [ ! -f ${join(dir, 'b.fast')} ]; then sleep 60; fi; cat {{ artifacts.a }} > b.txt; echo B >> b.txt" }
    output_artifacts: [{ name: b, path: b.txt }]
  - id: c
    dependencies: [b]
    memory: { inject_artifacts: [{ step: b, artifact: b }] }
    exec: { type: command, source: "${count('c')}; cat {{ artifacts.b }} > c.txt; echo C >> c.txt" }
    output_artifacts: [{ name: c, path: c.txt }]
`;
  mkdirSync(join(dir, 'pipelines'));
  writeFileSync(join(dir, 'pipelines', 'chain.yaml'), pipeline);
  return dir;
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').length : 0);

async function startAndWaitForB(dir: string) {
  const child = execa(process.execPath, [WAVE_BIN, 'run', 'chain', '--output', 'text'], { cwd: dir, reject: false, stdin: 'ignore' });
  const bPid = await waitFor(() => existsSync(join(dir, 'b.pid')) && Number(readFileSync(join(dir, 'b.pid'), 'utf8')), 'step b to start');
  return { child, bPid };
}

async function resumeAndCheck(dir: string) {
  const runId = latestRun(dir).id;
  writeFileSync(join(dir, 'b.fast'), '');
  const resumed = await runWave(['resume', runId, '--output', 'text'], { cwd: dir });
  expect(resumed.code).toBe(0);
  const run = latestRun(dir);
  expect(run.id).toBe(runId);
  expect(run.status).toBe('completed');
  expect(lines(join(dir, 'a.count'))).toBe(1); // completed before the interruption: not re-run
  expect(lines(join(dir, 'b.count'))).toBe(2);
  expect(lines(join(dir, 'c.count'))).toBe(1);
  const artifacts = join(dir, '.wave', 'runs', runId, 'artifacts');
  expect(readdirSync(artifacts).sort()).toEqual(['a', 'b', 'c']);
  expect(readFileSync(join(dir, '.wave', 'runs', runId, run.steps.c!.artifacts[0]!.path), 'utf8')).toBe('A\nB\nC\n');
}

describe('interrupting and resuming a run', () => {
  it('Ctrl-C kills the step, records cancelled, exits 130, and resume finishes the run', async () => {
    const dir = project();
    const { child, bPid } = await startAndWaitForB(dir);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(latestRun(dir).status).toBe('cancelled');
    expect(latestRun(dir).steps.b!.status).toBe('cancelled');
    await waitFor(() => !isAlive(bPid), 'the step process to be gone', 10_000);
    await resumeAndCheck(dir);
  });

  it('kill -9 of wave run mid-pipeline, then resume: completed steps are not re-run and every artifact is there', async () => {
    const dir = project();
    const { child, bPid } = await startAndWaitForB(dir);
    // The step can write its own pid before Wave records it; the kill comes once Wave has.
    await waitFor(() => existsSync(join(dir, '.wave', 'runs', latestRun(dir).id, 'steps', 'b', 'attempt-1', 'pid')), 'wave to record the pid');
    child.kill('SIGKILL');
    await child;
    // Killed mid-run: nothing recorded an end (run.json may even predate the first step).
    expect(['pending', 'running']).toContain(latestRun(dir).status);
    await resumeAndCheck(dir);
    // The orphaned step of the killed run was stopped by resume, not left running.
    expect(isAlive(bPid)).toBe(false);
  });

  it('wave cancel stops a running run', async () => {
    const dir = project();
    const { child, bPid } = await startAndWaitForB(dir);
    const cancel = await runWave(['cancel', latestRun(dir).id], { cwd: dir });
    expect(cancel.code).toBe(0);
    expect((await child).exitCode).toBe(143); // cancel sends SIGTERM: 128 + 15
    expect(latestRun(dir).status).toBe('cancelled');
    await waitFor(() => !isAlive(bPid), 'the step process to be gone', 10_000);
  });
});
