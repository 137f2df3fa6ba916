import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WaveError } from '../core/errors/errors.js';
import { ioError } from '../io-error.js';
import { isSameProcessAlive, processStartTime } from '../process/liveness.js';

/** The run folder's lock: who drives the run now. */
export const LOCK_FILE = 'lock';
/** Held for the instant a dead owner's lock is removed, so two processes never both remove one and create another. */
const BREAK_FILE = 'lock.break';
/** How long a lock with no readable owner counts as being written (its creator may be between create and write). */
const TORN_GRACE_MS = 5_000;
/** How long to keep trying while the lock changes hands among dead owners. */
const ACQUIRE_MS = 5_000;
const RETRY_MS = 10;

/** The process holding a run: pid, its start time (so a reused pid is not mistaken for it) and which command. */
export interface LockOwner {
  pid: number;
  /** /proc/<pid>/stat field 22; absent where there is no /proc. */
  startTime?: number;
  command: string;
  acquiredAt: string;
  /** Tells this holding from any other, even by the same process. */
  token: string;
}

type LockState = { kind: 'absent' } | { kind: 'owner'; owner: LockOwner; raw: string } | { kind: 'torn'; raw: string; ageMs: number };

/** Whether the lock's owner still runs (a zombie and a reused pid do not). */
export function isOwnerAlive(owner: LockOwner): boolean {
  return isSameProcessAlive(owner.pid, owner.startTime);
}

/** The owner named in a run folder's lock file, or undefined when there is none. */
export function readLockOwner(runDir: string): LockOwner | undefined {
  const state = readLock(join(runDir, LOCK_FILE));
  return state.kind === 'owner' ? state.owner : undefined;
}

/** The process that drives the run now, or undefined when the lock is absent or its owner is dead. */
export function liveLockOwner(runDir: string): LockOwner | undefined {
  const owner = readLockOwner(runDir);
  return owner && isOwnerAlive(owner) ? owner : undefined;
}

/** The locks this process holds, released at its exit by one listener however many runs hold one (a fan-out's children). */
const heldLocks = new Set<RunLock>();

function releaseHeldLocks(): void {
  for (const lock of [...heldLocks]) lock.release();
}

/**
 * The right to drive one run (`wave run`, `wave resume`, `wave cancel` of a dead run): one process at a
 * time. Taken with an atomic exclusive create; the lock of a dead (or zombie) owner is replaced.
 */
export class RunLock {
  private held = true;

  private constructor(
    readonly runDir: string,
    readonly owner: LockOwner,
    /** The dead owner whose lock this one replaced, if any. */
    readonly replaced: LockOwner | undefined,
  ) {
    if (heldLocks.size === 0) process.once('exit', releaseHeldLocks);
    heldLocks.add(this);
  }

  /** Takes the run's lock for this process; a live owner is an invalid_argument naming its pid. */
  static async acquire(runDir: string, runId: string, command: string): Promise<RunLock> {
    const owner: LockOwner = {
      pid: process.pid,
      startTime: processStartTime(process.pid),
      command,
      acquiredAt: new Date().toISOString(),
      token: randomBytes(8).toString('hex'),
    };
    const file = join(runDir, LOCK_FILE);
    const content = `${JSON.stringify(owner)}\n`;
    const deadline = Date.now() + ACQUIRE_MS;
    let replaced: LockOwner | undefined;
    for (;;) {
      if (createExclusive(file, content)) return new RunLock(runDir, owner, replaced);
      const seen = readLock(file);
      if (seen.kind === 'owner' && isOwnerAlive(seen.owner)) throw ownedBy(runId, seen.owner);
      if (Date.now() > deadline) throw contended(runId, file);
      if (seen.kind === 'absent') continue; // Released between our create and our read.
      if (seen.kind === 'torn' && seen.ageMs < TORN_GRACE_MS) {
        await sleep(RETRY_MS);
        continue;
      }
      if (await removeStale(runDir, file, seen.raw)) replaced = seen.kind === 'owner' ? seen.owner : replaced;
    }
  }

  /** Whether this process still holds the lock (it has not released it). */
  get isHeld(): boolean {
    return this.held;
  }

  /** Gives the run up: removes the lock file if it is still ours; safe to call twice. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    heldLocks.delete(this);
    if (heldLocks.size === 0) process.off('exit', releaseHeldLocks);
    const file = join(this.runDir, LOCK_FILE);
    const seen = readLock(file);
    if (seen.kind === 'owner' && seen.owner.token === this.owner.token) unlinkQuietly(file);
  }
}

/**
 * Removes a dead owner's lock, if it is still the one seen (`raw`), while holding BREAK_FILE: only a
 * breaker removes a lock it does not hold, and breakers go one at a time, so a lock just taken by
 * another is never removed. Returns whether this call removed it.
 */
async function removeStale(runDir: string, file: string, raw: string): Promise<boolean> {
  const mutex = join(runDir, BREAK_FILE);
  const me: LockOwner = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    command: 'break',
    acquiredAt: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  if (!createExclusive(mutex, `${JSON.stringify(me)}\n`)) {
    const breaker = readLock(mutex);
    if (breaker.kind === 'absent') return false;
    // A breaker killed in its few-microsecond window leaves the file behind; its death frees it.
    const dead = breaker.kind === 'owner' ? !isOwnerAlive(breaker.owner) : breaker.ageMs >= TORN_GRACE_MS;
    const again = readLock(mutex);
    if (dead && again.kind !== 'absent' && again.raw === breaker.raw) unlinkQuietly(mutex);
    else await sleep(RETRY_MS);
    return false;
  }
  try {
    const now = readLock(file);
    if (now.kind === 'absent' || now.raw !== raw) return false;
    unlinkQuietly(file);
    return true;
  } finally {
    unlinkQuietly(mutex);
  }
}

/** Creates `file` holding `content` only if it does not exist, atomically and never half-written: false if it exists. */
function createExclusive(file: string, content: string): boolean {
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(partial, content, { flag: 'wx' });
    try {
      linkSync(partial, file);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    }
    // A file system without hard links: an exclusive create, whose content a reader may briefly see empty.
    try {
      writeFileSync(file, content, { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  } catch (cause) {
    // Wave writes a lock file in the run folder while it drives a run: a full or read-only folder stops it here.
    throw ioError('create the run lock', file, cause);
  } finally {
    unlinkQuietly(partial);
  }
}

function readLock(file: string): LockState {
  let raw: string;
  let ageMs: number;
  try {
    ageMs = Date.now() - statSync(file).mtimeMs;
    raw = readFileSync(file, 'utf8');
  } catch {
    return { kind: 'absent' };
  }
  try {
    const owner = JSON.parse(raw) as Partial<LockOwner>;
    if (Number.isInteger(owner.pid) && typeof owner.token === 'string') {
      return { kind: 'owner', owner: { command: 'run', acquiredAt: '', ...owner } as LockOwner, raw };
    }
  } catch {
    // Torn or foreign: judged by its age.
  }
  return { kind: 'torn', raw, ageMs };
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

function ownedBy(runId: string, owner: LockOwner): WaveError {
  const since = owner.acquiredAt ? ` since ${owner.acquiredAt}` : '';
  return new WaveError('invalid_argument', `run ${runId} is in use by another Wave process: pid ${owner.pid} (\`wave ${owner.command}\`${since})`, {
    hint: `A run is driven by one process at a time. Wait for pid ${owner.pid} to finish, or stop it with \`wave cancel ${runId}\`.`,
  });
}

function contended(runId: string, file: string): WaveError {
  return new WaveError('invalid_argument', `run ${runId}: could not take its lock ${file}; other processes keep taking it`, {
    hint: 'Another `wave resume` or `wave cancel` of this run is starting; try again when it is done.',
  });
}
