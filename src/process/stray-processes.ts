import { sleep } from '../core/sleep.js';
import { stepProcesses, type StepOwner, type SweepMark } from './step-processes.js';

const POLL_MS = 20;
const GONE_WITHIN_MS = 5_000;

/**
 * Kills what a step left behind outside its process group (setsid'd daemons, double-forked children) and waits until
 * it is gone. Best effort: a process that cleared its environment, or one of another user, is not found. Never rejects.
 */
export async function endStrayProcesses(owner: StepOwner, mark?: SweepMark): Promise<number> {
  const deadline = Date.now() + GONE_WITHIN_MS;
  let killed = 0;
  for (;;) {
    const strays = stepProcesses(owner, mark);
    if (strays.length === 0 || Date.now() > deadline) return killed;
    for (const pid of strays) {
      try {
        process.kill(pid, 'SIGKILL');
        killed++;
      } catch {
        // Already gone.
      }
    }
    await sleep(POLL_MS);
  }
}
