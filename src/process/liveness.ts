import { readdir, readFile } from 'node:fs/promises';
import { HAS_PROC, hasExited, parseProcessStat, readProcessStat, type ProcessStat } from './proc-stat.js';

/** Whether kill(target, 0) finds a process (target > 0) or a group (target < 0): EPERM means it exists but belongs to someone else. */
function isSignalable(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When the process started (ticks since boot), so a reused pid is told apart from the one recorded; undefined without /proc. */
export function processStartTime(pid: number): number | undefined {
  const startTime = readProcessStat(pid)?.startTime;
  return startTime !== undefined && Number.isFinite(startTime) ? startTime : undefined;
}

/**
 * Whether a process with this pid is running: one of another user counts, and a zombie (killed, not yet reaped by its
 * parent) is dead, though kill(pid, 0) still finds it.
 */
export function isProcessAlive(pid: number | undefined): boolean {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return false;
  if (!isSignalable(pid)) return false;
  const stat = readProcessStat(pid);
  return stat === undefined || !hasExited(stat);
}

/** Whether the process that was `pid`, started at `startTime`, still runs (a pid reused by another process does not count). */
export function isSameProcessAlive(pid: number, startTime: number | undefined): boolean {
  if (!isProcessAlive(pid)) return false;
  if (startTime === undefined) return true;
  const now = processStartTime(pid);
  return now === undefined || now === startTime;
}

/** /proc stat files read at once: each read holds a descriptor, and Wave's must last out a flood of them. */
const STAT_BATCH = 32;

/** The /proc stat of a process, read off the main thread; undefined when it is gone, 'unknown' when it could not be read (EMFILE). */
async function readProcStatAsync(pid: string): Promise<ProcessStat | undefined | 'unknown'> {
  try {
    return parseProcessStat(await readFile(`/proc/${pid}/stat`, 'latin1'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ESRCH' ? undefined : 'unknown';
  }
}

/**
 * True while a process of the group is alive, by the same rules as isProcessAlive: zombies count as dead (where PID 1
 * does not reap orphans, as in some containers, a killed grandchild stays a zombie that kill(-pgid, 0) still finds).
 */
export async function isGroupAlive(pgid: number): Promise<boolean> {
  if (!isSignalable(-pgid)) return false;
  if (!HAS_PROC) return true;
  // What cannot be read (out of descriptors) counts as alive: kill(-pgid, 0) found the group, and waiting is safe.
  const pids = await readdir('/proc').then(
    (names) => names.filter((name) => /^\d+$/.test(name)),
    () => undefined,
  );
  if (!pids) return true;
  for (let i = 0; i < pids.length; i += STAT_BATCH) {
    const stats = await Promise.all(pids.slice(i, i + STAT_BATCH).map(readProcStatAsync));
    if (stats.some((stat) => stat === 'unknown' || (stat !== undefined && stat.pgid === pgid && !hasExited(stat)))) return true;
  }
  return false;
}
