import { existsSync, readFileSync } from 'node:fs';

const HAS_PROC = process.platform === 'linux' && existsSync('/proc/self/stat');

/** What /proc/<pid>/stat says of a process: its state letter and its start time (clock ticks since boot, field 22). */
export interface ProcessStat {
  state: string;
  startTime: number;
}

/** The process's /proc stat, or undefined when it is gone or there is no /proc (or it is hidden from us). */
export function readProcessStat(pid: number): ProcessStat | undefined {
  if (!HAS_PROC) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields from 3 on start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', startTime: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

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
  const state = readProcessStat(pid)?.state;
  return state !== 'Z' && state !== 'X';
}

/** Whether the process that was `pid`, started at `startTime`, still runs (a pid reused by another process does not count). */
export function isSameProcessAlive(pid: number, startTime: number | undefined): boolean {
  if (!isProcessAlive(pid)) return false;
  if (startTime === undefined) return true;
  const now = processStartTime(pid);
  return now === undefined || now === startTime;
}
