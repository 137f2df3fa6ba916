import type { Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import { WaveError } from '../../core/errors/errors.js';
import { recordOrphanCancelled } from '../../state/cancel-orphan.js';
import { isProcessAlive } from '../../process/liveness.js';
import { RunLock, isOwnerAlive, readLockOwner } from '../../state/run-lock.js';
import type { RunRecord } from '../../state/record/run-record.js';
import { RunStore } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';
import { EXIT } from '../../core/errors/exit-codes.js';

const WAIT_MS = 15_000;
const POLL_MS = 100;

/** The process driving a run, as cancel sees it. */
interface Driver {
  pid: number;
  command: string;
  alive(): boolean;
}

/** `wave cancel <run>`: asks the process that owns a run to stop (SIGTERM, as Ctrl-C) and waits until it has. */
export function registerCancel(program: Command): void {
  program
    .command('cancel')
    .description('Cancel a running run: its steps are stopped and it is recorded as cancelled (resumable).')
    .argument('<run>', 'a run id, or a unique prefix of one')
    .option('-m, --manifest <file>', 'the manifest the run belongs to (default: the nearest wave.yaml, else this folder)')
    .action(async (runId: string, options: { manifest?: string }) => {
      const store = RunStore.open(findRunsRoot(process.cwd(), options.manifest), runId);
      const { id, status, finishedAt } = store.record;
      const active = status === 'running' || status === 'pending';
      const driver = driverOf(store);
      // A live owner is signalled whatever run.json says: a `wave resume` may not have rewritten it yet.
      if (!active && !driver) {
        throw new WaveError('invalid_argument', `run ${id} is not running (it is ${status})`, {
          hint: status === 'completed' ? undefined : `Continue it with \`wave resume ${id}\`.`,
        });
      }
      if (!driver || !signalDriver(driver)) {
        const pid = driver?.pid ?? readLockOwner(store.dir)?.pid ?? store.record.pid;
        await cancelOrphan(store);
        process.stdout.write(`run ${id} had no live process${pid ? ` (pid ${pid} is gone)` : ''}; recorded it as cancelled\n`);
        return;
      }
      const final = await waitUntilStopped(store, driver, active, WAIT_MS);
      if (final === undefined) {
        process.stderr.write(
          `run ${id} still says running ${WAIT_MS / 1000}s after SIGTERM to pid ${driver.pid}\n  hint: if it is stuck, \`kill -9 ${driver.pid}\` and run \`wave cancel ${id}\` again\n`,
        );
        process.exitCode = EXIT.runFailed;
        return;
      }
      if (!active && final.status === status && final.finishedAt === finishedAt) {
        process.stdout.write(`stopped \`wave ${driver.command}\` (pid ${driver.pid}) before it changed run ${id}; it is still ${status}\n`);
        return;
      }
      process.stdout.write(
        final.status === 'cancelled' ? `cancelled run ${id}\n  resume with: wave resume ${id}\n` : `run ${id} finished as ${final.status} before the cancel took effect\n`,
      );
    });
}

/** The run's live owner: its lock's process; for a run without a lock (an older Wave), the pid run.json records. */
function driverOf(store: RunStore): Driver | undefined {
  const owner = readLockOwner(store.dir);
  if (owner) return isOwnerAlive(owner) ? { pid: owner.pid, command: owner.command, alive: () => isOwnerAlive(owner) } : undefined;
  const { pid, status } = store.record;
  if (pid === undefined || (status !== 'running' && status !== 'pending') || !isProcessAlive(pid)) return undefined;
  return { pid, command: 'run', alive: () => isProcessAlive(pid) };
}

/** Sends SIGTERM to the run's owner; false when there is no such process to signal. */
function signalDriver(driver: Driver): boolean {
  // Another `wave cancel` recording a dead run: it finishes by itself, in moments.
  if (driver.command === 'cancel') return true;
  try {
    process.kill(driver.pid, 'SIGTERM');
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw new WaveError('io_error', `cannot signal pid ${driver.pid}: ${(error as Error).message}`, {
      hint: 'The run is driven by a process of another user; cancel it as that user.',
      cause: error,
    });
  }
}

/** Records a run whose owner is gone as cancelled, holding its lock so no new owner is disturbed; returns the record. */
async function cancelOrphan(store: RunStore): Promise<RunRecord> {
  const lock = await RunLock.acquire(store.dir, store.record.id, 'cancel');
  try {
    const record = store.reload();
    if (record.status === 'running' || record.status === 'pending') recordOrphanCancelled(store, lock);
    return store.record;
  } finally {
    lock.release();
  }
}

/**
 * Polls until the owner has stopped: run.json left running (when it said so at first), or the owner
 * died (a zombie counts), recording the run as cancelled if it did not say so itself.
 */
async function waitUntilStopped(store: RunStore, driver: Driver, wasActive: boolean, limitMs: number): Promise<RunRecord | undefined> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    await sleep(POLL_MS);
    let record: RunRecord;
    try {
      record = store.reload();
    } catch {
      continue; // Being rewritten by someone else's tooling: try again.
    }
    if (wasActive && record.status !== 'running' && record.status !== 'pending') return record;
    if (!driver.alive()) {
      // Check once more: the process may have written its last record just before exiting.
      const last = store.reload();
      if (last.status !== 'running' && last.status !== 'pending') return last;
      return cancelOrphan(store);
    }
  }
  return undefined;
}
