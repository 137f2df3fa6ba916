import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { WAVE_BIN, runWave } from '../support/cli.js';
import { latestRunDir, letFinish, longRunProject, startLongRun, stepPids } from '../support/long-run.js';
import { latestRun } from '../support/runs.js';
import { isAlive, waitFor } from '../support/wait.js';

const INTERRUPTED = { class: 'aborted', message: 'interrupted: wave run was killed' };

/** Starts `wave run long`, waits for step b, then kill -9s Wave: the run is left `running`, its lock stale, b orphaned. */
async function killedRun(dir: string) {
  const { child, bPid } = await startLongRun(dir);
  child.kill('SIGKILL');
  await child;
  return { runId: latestRun(dir).id, bPid, wavePid: child.pid! };
}

const stdoutOf = (dir: string, attempt: number) => readFileSync(join(latestRunDir(dir), 'steps', 'b', `attempt-${attempt}`, 'stdout'), 'utf8');

// Stands in for a parent that never reaps its child: it runs `wave run`, and on SIGUSR2 kills it with SIGKILL and
// then blocks, so the dead `wave run` stays a zombie (its exit is only collected by the event loop it blocks).
const NON_REAPING_PARENT = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, process.argv.slice(1), { stdio: 'ignore' });
process.stdout.write(child.pid + '\\n');
process.on('SIGUSR2', () => {
  process.kill(child.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000);
});
setInterval(() => {}, 1000);
`;

const isZombie = (pid: number) => {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('one owner per run', () => {
  it('5 concurrent resumes of a killed run: 1 proceeds, 4 are refused naming its pid, and none stops its steps', async () => {
    const dir = longRunProject();
    const { runId, bPid } = await killedRun(dir);
    // All five wait at a barrier, then exec Wave at the same moment (exec keeps the pid), as a racing script would.
    const barrier = join(dir, 'barrier');
    const script = 'while [ ! -f "$1" ]; do sleep 0.01; done; exec "$2" "$3" resume "$4" --output text';
    const resumes = Array.from({ length: 5 }, () => {
      const child = execa('sh', ['-c', script, 'sh', barrier, process.execPath, WAVE_BIN, runId], { cwd: dir, reject: false, stdin: 'ignore', env: { NO_COLOR: '1' } });
      const state = { child, done: false };
      void child.finally(() => (state.done = true));
      return state;
    });
    writeFileSync(barrier, '');
    try {
      await waitFor(() => resumes.filter((r) => r.done).length >= 4, '4 resumes to be refused', 30_000);
      // The one still running drives the run: it restarted step b, and no other resume stopped it.
      const owner = resumes.find((r) => !r.done)!;
      await waitFor(() => stepPids(dir).length >= 2, 'the owner to restart step b');
      const refusals = await Promise.all(resumes.filter((r) => r.done).map((r) => r.child));
      expect(refusals.map((r) => [r.exitCode, new RegExp(`pid ${owner.child.pid}\\b`).test(r.stderr)])).toEqual(Array(4).fill([2, true]));
      for (const result of refusals) {
        expect(result.stderr).toContain(`invalid_argument: run ${runId} is in use by another Wave process: pid ${owner.child.pid} (\`wave resume\``);
        expect(result.stderr).toContain(`hint: A run is driven by one process at a time.`);
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
      const [, restarted] = stepPids(dir);
      expect(isAlive(restarted!)).toBe(true);
      expect(isAlive(bPid)).toBe(false); // the killed run's step: stopped by the owner, as an orphan
      letFinish(dir);
      const result = await owner.child;
      expect(result.exitCode, result.stderr).toBe(0);
    } finally {
      letFinish(dir);
      await Promise.all(resumes.map((r) => r.child));
    }
    const run = latestRun(dir);
    expect(run.status).toBe('completed');
    expect(stepPids(dir)).toHaveLength(2);
    expect(run.steps.b!.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(existsSync(join(latestRunDir(dir), 'lock'))).toBe(false);
  });

  it('a second `wave resume` of a running run is refused at once, and `wave cancel` stops the owner', async () => {
    const dir = longRunProject();
    const { child } = await startLongRun(dir);
    const runId = latestRun(dir).id;
    const started = Date.now();
    const second = await runWave(['resume', runId], { cwd: dir });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`is in use by another Wave process: pid ${child.pid} (\`wave run\``);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(latestRun(dir).status).toBe('running');
    const cancel = await runWave(['cancel', runId], { cwd: dir });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain(`cancelled run ${runId}`);
    expect((await child).exitCode).toBe(143);
  });
});

describe("a run killed before it recorded its step's pid", () => {
  it('cancel finds the step by the run id in its environment and stops it', async () => {
    const dir = longRunProject();
    const { runId, bPid } = await killedRun(dir);
    // As if the kill came between starting step b and writing its pid: no attempt folder and no record names it.
    rmSync(join(latestRunDir(dir), 'steps', 'b', 'attempt-1', 'pid'), { force: true });
    const recordFile = join(latestRunDir(dir), 'run.json');
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as RunRecord;
    for (const attempt of record.steps.b!.attempts) delete attempt.pid;
    writeFileSync(recordFile, JSON.stringify(record));
    expect(isAlive(bPid)).toBe(true);
    const cancel = await runWave(['cancel', runId], { cwd: dir });
    expect(cancel.code, cancel.stderr).toBe(0);
    await waitFor(() => !isAlive(bPid), 'step b to be stopped', 10_000);
  });
});

describe('a killed `wave run` left unreaped (a zombie) counts as dead', () => {
  it('cancel returns at once and resume proceeds at once', async () => {
    const dir = longRunProject();
    const parent = spawn(process.execPath, ['-e', NON_REAPING_PARENT, WAVE_BIN, 'run', 'long', '--output', 'quiet'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
      const wavePid = Number(chunk.toString().trim());
      const bPid = await waitFor(() => stepPids(dir)[0], 'step b to start');
      parent.kill('SIGUSR2');
      await waitFor(() => isZombie(wavePid), '`wave run` to be a zombie', 10_000);
      const runId = latestRun(dir).id;

      let started = Date.now();
      const cancel = await runWave(['cancel', runId], { cwd: dir });
      expect(cancel.code, cancel.stderr).toBe(0);
      expect(cancel.stdout).toBe(`run ${runId} had no live process (pid ${wavePid} is gone); recorded it as cancelled`);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(latestRun(dir).status).toBe('cancelled');
      await waitFor(() => !isAlive(bPid), 'the orphaned step to be stopped', 10_000);
      expect(isZombie(wavePid)).toBe(true); // still unreaped: the commands did not wait for it

      letFinish(dir);
      started = Date.now();
      const resumed = await runWave(['resume', runId, '--output', 'text'], { cwd: dir });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(latestRun(dir).status).toBe('completed');
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('resume right after the kill proceeds at once (the zombie holds neither the lock nor the run)', async () => {
    const dir = longRunProject();
    const parent = spawn(process.execPath, ['-e', NON_REAPING_PARENT, WAVE_BIN, 'run', 'long', '--output', 'quiet'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
      const wavePid = Number(chunk.toString().trim());
      await waitFor(() => stepPids(dir)[0], 'step b to start');
      parent.kill('SIGUSR2');
      await waitFor(() => isZombie(wavePid), '`wave run` to be a zombie', 10_000);
      letFinish(dir);
      const resumed = await runWave(['resume', latestRun(dir).id, '--output', 'text'], { cwd: dir });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(latestRun(dir).status).toBe('completed');
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

describe('attempt numbers are never reused', () => {
  it.each([
    ['run.json recorded the attempt', false],
    ['run.json predates the attempt (the kill came before its burst write)', true],
  ])('kill -9 then resume, %s: attempt-2 beside an intact attempt-1, recorded as interrupted', async (_label, forget) => {
    const dir = longRunProject();
    const { runId, bPid } = await killedRun(dir);
    const runDir = latestRunDir(dir);
    if (forget) {
      const file = join(runDir, 'run.json');
      const record = JSON.parse(readFileSync(file, 'utf8')) as RunRecord;
      record.steps.b!.attempts = [];
      writeFileSync(file, JSON.stringify(record));
    }
    const pidFile = readFileSync(join(runDir, 'steps', 'b', 'attempt-1', 'pid'), 'utf8');
    letFinish(dir);
    const resumed = await runWave(['resume', runId, '--output', 'text'], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('b started (attempt 2, ');

    expect(stdoutOf(dir, 1)).toBe(`attempt-output-${bPid}\n`);
    expect(readFileSync(join(runDir, 'steps', 'b', 'attempt-1', 'pid'), 'utf8')).toBe(pidFile);
    const [, second] = stepPids(dir);
    expect(stdoutOf(dir, 2)).toBe(`attempt-output-${second}\nB\n`);

    const run = latestRun(dir);
    expect(run.status).toBe('completed');
    const [first, next] = run.steps.b!.attempts;
    expect(run.steps.b!.attempts).toHaveLength(2);
    expect(first).toMatchObject({ attempt: 1, interrupted: true, failure: INTERRUPTED, pid: Number(pidFile) });
    expect(first!.adapter).toBe(next!.adapter);
    expect(next).toMatchObject({ attempt: 2, exitCode: 0 });
    expect(next!.failure).toBeUndefined();
    expect(next!.interrupted).toBeUndefined();
  });
});
