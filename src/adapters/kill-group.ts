import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { hasExited, parseProcessStat, type ProcessStat } from '../proc-stat.js';

const POLL_MS = 50;
/** How long to wait for the kernel to finish off a SIGKILLed group. */
const AFTER_KILL_MS = 5_000;
const HAS_PROC = process.platform === 'linux' && existsSync('/proc/self/stat');

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends a signal to every process of a group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** The /proc stat of a process, read off the main thread, or undefined when it is gone. */
async function readProcStat(pid: string): Promise<ProcessStat | undefined> {
  try {
    return parseProcessStat(await readFile(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

/**
 * True while a process of the group is alive. Zombies count as dead: where PID 1 does not reap
 * orphans (some containers), a killed grandchild stays a zombie that kill(-pgid, 0) still finds.
 */
export async function isGroupAlive(pgid: number): Promise<boolean> {
  if (!signalGroup(pgid, 0)) return false;
  if (!HAS_PROC) return true;
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const stats = await Promise.all(pids.map(readProcStat));
  return stats.some((stat) => stat !== undefined && stat.pgid === pgid && !hasExited(stat));
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
