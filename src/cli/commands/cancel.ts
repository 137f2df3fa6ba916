import type { Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import { WaveError } from '../../errors.js';
import { recordOrphanCancelled } from '../../state/cancel-orphan.js';
import { isProcessAlive } from '../../state/liveness.js';
import type { RunRecord } from '../../state/run-record.js';
import { RunStore } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';
import { EXIT } from '../exit-codes.js';

const WAIT_MS = 15_000;
const POLL_MS = 100;

/** `wave cancel <run>`: asks the `wave run` driving a run to stop (SIGTERM, as Ctrl-C) and waits until it has. */
export function registerCancel(program: Command): void {
  program
    .command('cancel')
    .description('Cancel a running run: its steps are stopped and it is recorded as cancelled (resumable).')
    .argument('<run>', 'a run id, or a unique prefix of one')
    .option('-m, --manifest <file>', 'the manifest the run belongs to (default: the nearest wave.yaml)')
    .action(async (runId: string, options: { manifest?: string }) => {
      const store = RunStore.open(findRunsRoot(process.cwd(), options.manifest), runId);
      const { id, status, pid } = store.record;
      if (status !== 'running' && status !== 'pending') {
        throw new WaveError('invalid_argument', `run ${id} is not running (it is ${status})`, {
          hint: status === 'completed' ? undefined : `Continue it with \`wave resume ${id}\`.`,
        });
      }
      if (!signalDriver(pid)) {
        recordOrphanCancelled(store);
        process.stdout.write(`run ${id} had no live process${pid ? ` (pid ${pid} is gone)` : ''}; recorded it as cancelled\n`);
        return;
      }
      const final = await waitUntilStopped(store, WAIT_MS);
      if (final === undefined) {
        process.stderr.write(
          `run ${id} still says running ${WAIT_MS / 1000}s after SIGTERM to pid ${pid}\n  hint: if it is stuck, \`kill -9 ${pid}\` and run \`wave cancel ${id}\` again\n`,
        );
        process.exitCode = EXIT.runFailed;
        return;
      }
      process.stdout.write(
        final.status === 'cancelled'
          ? `cancelled run ${id}\n  resume with: wave resume ${id}\n`
          : `run ${id} finished as ${final.status} before the cancel took effect\n`,
      );
    });
}

/** Sends SIGTERM to the run's process; false when there is no such process to signal. */
function signalDriver(pid: number | undefined): boolean {
  if (pid === undefined || !isProcessAlive(pid)) return false;
  try {
    process.kill(pid, 'SIGTERM');
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw new WaveError('io_error', `cannot signal pid ${pid}: ${(error as Error).message}`, {
      hint: 'The run is driven by a process of another user; cancel it as that user.',
      cause: error,
    });
  }
}

/** Polls run.json until it leaves running, or its driver dies without saying so (then records it). */
async function waitUntilStopped(store: RunStore, limitMs: number): Promise<RunRecord | undefined> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    await sleep(POLL_MS);
    let record: RunRecord;
    try {
      record = store.reload();
    } catch {
      continue; // Being rewritten by someone else's tooling: try again.
    }
    if (record.status !== 'running' && record.status !== 'pending') return record;
    if (!isProcessAlive(record.pid)) {
      // Check once more: the process may have written its last record just before exiting.
      const last = store.reload();
      if (last.status !== 'running' && last.status !== 'pending') return last;
      recordOrphanCancelled(store);
      return store.record;
    }
  }
  return undefined;
}
