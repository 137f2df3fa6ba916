import { EVENT_VERSION } from '../../src/events.js';
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunStore } from '../../src/state/run-store.js';
import { sampleProject, sampleRecord, sampleStep } from '../state/sample-run.js';
import { runWave } from '../support/cli.js';

const RUN = 'hello-20240501-120000-abcd';

// Stands in for `wave run`: records its pid, and on SIGTERM records the run as cancelled (or, with
// `die`, exits without recording anything, like a crash).
const FAKE_DRIVER = `
const { readFileSync, writeFileSync, renameSync } = require('node:fs');
const [file, onTerm] = process.argv.slice(1);
const write = (r) => { writeFileSync(file + '.tmp', JSON.stringify(r)); renameSync(file + '.tmp', file); };
const record = JSON.parse(readFileSync(file, 'utf8'));
write({ ...record, status: 'running', pid: process.pid });
process.on('SIGTERM', () => {
  if (onTerm === 'die') process.exit(143);
  const r = JSON.parse(readFileSync(file, 'utf8'));
  for (const s of Object.values(r.steps)) if (s.status === 'running') s.status = 'cancelled';
  write({ ...r, status: 'cancelled', finishedAt: new Date().toISOString(), durationMs: 1 });
  process.exit(130);
});
process.stdout.write('ready\\n');
setInterval(() => {}, 1000);
`;

function runningProject() {
  const project = sampleProject();
  const store = RunStore.create(project.runsRoot, sampleRecord(RUN, { status: 'pending' }, [sampleStep('a', { status: 'running' }), sampleStep('b')]));
  return { ...project, store };
}

/** Starts the fake driver and waits until it has recorded its pid; wrapped, since a bare process promise would be awaited. */
async function startDriver(runFile: string, onTerm: 'record' | 'die') {
  const driver = execa(process.execPath, ['-e', FAKE_DRIVER, runFile, onTerm], { reject: false, timeout: 120_000 });
  await new Promise<void>((resolve, reject) => {
    driver.stdout.once('data', () => resolve());
    void driver.then((result) => reject(new Error(`the driver exited early: ${result.stderr}`)));
  });
  return { driver };
}

describe('wave cancel', () => {
  it('sends SIGTERM to the process driving the run and waits until run.json says cancelled', async () => {
    const { dir, store } = runningProject();
    const { driver } = await startDriver(join(store.dir, 'run.json'), 'record');
    const result = await runWave(['cancel', RUN], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`cancelled run ${RUN}\n  resume with: wave resume ${RUN}`);
    expect((await driver).exitCode).toBe(130);
    const record = store.reload();
    expect(record.status).toBe('cancelled');
    expect(record.steps.a!.status).toBe('cancelled');
  });

  it('records the run as cancelled itself when the process dies without saying so', async () => {
    const { dir, store } = runningProject();
    const { driver } = await startDriver(join(store.dir, 'run.json'), 'die');
    const result = await runWave(['cancel', RUN], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`cancelled run ${RUN}`);
    expect((await driver).exitCode).toBe(143);
    expect(store.reload().status).toBe('cancelled');
  });

  it('a run whose process is gone is recorded as cancelled directly, its left-over steps stopped', async () => {
    const { dir, store } = runningProject();
    // A step process the dead run left behind, in its own group and marked with the run id.
    const orphan = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', env: { ...process.env, WAVE_RUN_ID: RUN } });
    const exited = once(orphan, 'exit');
    const at = { v: EVENT_VERSION, ts: store.record.startedAt, runId: RUN } as const;
    store.appendEvent({ ...at, type: 'run_started', pipeline: 'hello', steps: ['a', 'b'], resumed: false, pid: 999_999_999 });
    store.appendEvent({ ...at, type: 'step_began', stepId: 'a' });
    store.appendEvent({ ...at, type: 'step_started', stepId: 'a', attempt: 1, adapter: 'shell', workspace: store.dir });
    store.appendEvent({ ...at, type: 'attempt_spawned', stepId: 'a', attempt: 1, pid: orphan.pid! });
    const cancelledAfter = new Date().toISOString();
    const result = await runWave(['cancel', RUN.slice(0, 10)], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`run ${RUN} had no live process (pid 999999999 is gone); recorded it as cancelled`);
    const [, signal] = await exited;
    expect(signal).toBe('SIGKILL');
    const record = store.reload();
    expect(record.status).toBe('cancelled');
    // An ISO timestamp taken by the cancel itself (ISO strings of one format compare as times).
    expect(new Date(record.finishedAt!).toISOString()).toBe(record.finishedAt);
    expect(record.finishedAt! >= cancelledAfter).toBe(true);
    expect(record.steps.a!.status).toBe('cancelled');
    expect(record.steps.b!.status).toBe('pending');
    const events = readFileSync(join(store.dir, 'events.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // After the run's own events, those of the cancel: its interrupted attempt, its step and the run.
    expect(events.slice(5).map((e) => e.type)).toEqual(['attempt_interrupted', 'step_cancelled', 'run_finished']);
    expect(events.at(-1)).toMatchObject({ v: 1, runId: RUN, status: 'cancelled' });
  });

  it('a run that is not running is exit 2 with a clear message', async () => {
    const project = sampleProject();
    RunStore.create(project.runsRoot, sampleRecord(RUN, { status: 'completed' }));
    const result = await runWave(['cancel', RUN], { cwd: project.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`invalid_argument: run ${RUN} is not running (it is completed)`);
    const failed = sampleProject();
    RunStore.create(failed.runsRoot, sampleRecord(RUN, { status: 'failed' }));
    const again = await runWave(['cancel', RUN], { cwd: failed.dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`hint: Continue it with \`wave resume ${RUN}\`.`);
  });
});
