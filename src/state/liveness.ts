import { hasExited, readProcessStat } from '../proc-stat.js';

/** When the process started (ticks since boot), so a reused pid is told apart from the one recorded; undefined without /proc. */
export function processStartTime(pid: number): number | undefined {
  const startTime = readProcessStat(pid)?.startTime;
  return startTime !== undefined && Number.isFinite(startTime) ? startTime : undefined;
}

/**
 * Whether a process with this pid is running: EPERM means it exists but belongs to someone else, and a
 * zombie (killed, not yet reaped by its parent) is dead, though kill(pid, 0) still finds it.
 */
export function isProcessAlive(pid: number | undefined): boolean {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
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
