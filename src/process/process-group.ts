import { isGroupAlive } from './liveness.js';
import { sleep } from '../core/sleep.js';

const POLL_MS = 50;
/** How long to wait for the kernel to finish off a SIGKILLed group. */
const AFTER_KILL_MS = 5_000;

/** Sends a signal to every process of a group; false when the group no longer exists (or is not ours to signal). */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

async function waitForGroupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!(await isGroupAlive(pgid))) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
}

/**
 * SIGTERM to the whole group, then SIGKILL after graceMs if anything in it (a grandchild that ignores
 * SIGTERM included) is still alive. Resolves once the group is gone; never rejects.
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  if (await waitForGroupGone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitForGroupGone(pgid, AFTER_KILL_MS);
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killLiveGroups(): void {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
}

/** Remembers a live group so it is SIGKILLed if this process exits first; returns the forget function. */
export function trackGroup(pgid: number): () => void {
  if (!exitHookInstalled) {
    process.on('exit', killLiveGroups);
    exitHookInstalled = true;
  }
  liveGroups.add(pgid);
  return () => liveGroups.delete(pgid);
}
