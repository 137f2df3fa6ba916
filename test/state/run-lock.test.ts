import { execa } from 'execa';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { isProcessAlive, processStartTime } from '../../src/process/liveness.js';
import { LOCK_FILE, RunLock, liveLockOwner, readLockOwner, type LockOwner } from '../../src/state/run-lock.js';
import { stopOrphanedAttempts } from '../../src/state/stop-orphans.js';
import { sampleRecord, tempDir } from './sample-run.js';
import { waitFor } from '../support/wait.js';

const RUN = 'hello-20240501-120000-abcd';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A lock file as another process would have written it. */
function plantLock(runDir: string, owner: Partial<LockOwner> & { pid: number }): LockOwner {
  const full: LockOwner = { command: 'run', acquiredAt: '2024-05-01T12:00:00.000Z', token: 'planted', startTime: processStartTime(owner.pid), ...owner };
  writeFileSync(join(runDir, LOCK_FILE), `${JSON.stringify(full)}\n`);
  return full;
}

/** A running process other than this one, to stand in for a live owner. */
async function liveProcess(): Promise<number> {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  return child.pid!;
}

/** The pid of a process that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const result = await execa('sh', ['-c', 'echo $$']);
  return Number(result.stdout);
}

/** A zombie: `sleep 300` is exec'd over the shell that started a short child, and never waits for it. */
async function zombiePid(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 300'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(parent);
  const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
  const pid = Number(chunk.toString().trim());
  await waitFor(() => /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')), 'the child to become a zombie', 5_000);
  return pid;
}

async function refusal(promise: Promise<unknown>): Promise<WaveError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WaveError);
  return error as WaveError;
}

describe('the run lock', () => {
  it('is a file in the run folder naming this process by pid and start time (/proc stat field 22), removed on release', async () => {
    const dir = tempDir();
    const lock = await RunLock.acquire(dir, RUN, 'resume');
    const owner = readLockOwner(dir)!;
    expect(owner).toMatchObject({ pid: process.pid, command: 'resume' });
    const stat = readFileSync('/proc/self/stat', 'utf8');
    expect(owner.startTime).toBe(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]));
    expect(liveLockOwner(dir)?.pid).toBe(process.pid);
    lock.release();
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("adds one exit listener however many runs it holds (a fan-out's children), and removes it when the last is released", async () => {
    const before = process.listenerCount('exit');
    const locks = await Promise.all(Array.from({ length: 12 }, () => RunLock.acquire(tempDir(), RUN, 'run')));
    expect(process.listenerCount('exit')).toBe(before + 1);
    for (const lock of locks) lock.release();
    expect(process.listenerCount('exit')).toBe(before);
    expect(locks.filter((lock) => existsSync(join(lock.runDir, LOCK_FILE)))).toEqual([]);
  });

  it('refuses a second owner at once, naming the live owner and how to stop it', async () => {
    const dir = tempDir();
    const pid = await liveProcess();
    plantLock(dir, { pid, command: 'resume' });
    const error = await refusal(RunLock.acquire(dir, RUN, 'resume'));
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toContain(`run ${RUN} is in use by another Wave process: pid ${pid} (\`wave resume\``);
    expect(error.hint).toContain(`wave cancel ${RUN}`);
    expect(readLockOwner(dir)?.pid).toBe(pid);
  });

  it('replaces the lock of a dead owner, of a zombie owner, and of a pid now reused by another process', async () => {
    for (const owner of [{ pid: await deadPid() }, { pid: await zombiePid() }, { pid: await liveProcess(), startTime: 1 }]) {
      const dir = tempDir();
      const planted = plantLock(dir, owner);
      const lock = await RunLock.acquire(dir, RUN, 'resume');
      expect(lock.replaced).toEqual(planted);
      expect(readLockOwner(dir)?.pid).toBe(process.pid);
      lock.release();
    }
  });

  it('a zombie is dead and EPERM is alive', async () => {
    expect(isProcessAlive(await zombiePid())).toBe(false);
    expect(isProcessAlive(await deadPid())).toBe(false);
    expect(isProcessAlive(process.pid)).toBe(true);
    if (process.getuid?.() !== 0) expect(isProcessAlive(1)).toBe(true); // init: kill(1, 0) is EPERM for a user
  });

  it("of many takers racing for a dead owner's lock, exactly one gets it", async () => {
    const dir = tempDir();
    plantLock(dir, { pid: await deadPid() });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => RunLock.acquire(dir, RUN, 'resume')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(String(r.reason)).toContain(`pid ${process.pid}`);
  });

  it('release never removes a lock another process holds', async () => {
    const dir = tempDir();
    const lock = await RunLock.acquire(dir, RUN, 'run');
    const pid = await liveProcess();
    plantLock(dir, { pid });
    lock.release();
    expect(readLockOwner(dir)?.pid).toBe(pid);
  });

  it("stopping orphaned attempts needs the lock: no one else kills the owner's steps", async () => {
    const dir = tempDir();
    const lock = await RunLock.acquire(dir, RUN, 'resume');
    lock.release();
    expect(() => stopOrphanedAttempts(sampleRecord(RUN), dir, lock)).toThrow(/without holding its lock/);
  });
});
