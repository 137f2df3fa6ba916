import { existsSync } from 'node:fs';
import { readProcFile } from './proc-file.js';

/** Whether this system has a Linux /proc to read process stats from. */
export const HAS_PROC = process.platform === 'linux' && existsSync('/proc/self/stat');

/** What /proc/<pid>/stat says of a process. */
export interface ProcessStat {
  /** The state letter: R, S, D, Z (zombie), X (dead)… */
  state: string;
  /** Its process group. */
  pgid: number;
  /** When it started, in clock ticks since boot (field 22). */
  startTime: number;
}

/** Parses the text of /proc/<pid>/stat. */
export function parseProcessStat(text: string): ProcessStat {
  // The command name may hold spaces and parentheses: fields from 3 on start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', pgid: Number(fields[2]), startTime: Number(fields[19]) };
}

/** The process's /proc stat, or undefined when it is gone or there is no /proc (or it is hidden from us). */
export function readProcessStat(pid: number | string): ProcessStat | undefined {
  if (!HAS_PROC) return undefined;
  try {
    return parseProcessStat(readProcFile(`/proc/${pid}/stat`));
  } catch {
    return undefined;
  }
}

/** A zombie (exited, not yet reaped) or dead process: still listed, no longer running. */
export function hasExited(stat: Pick<ProcessStat, 'state'>): boolean {
  return stat.state === 'Z' || stat.state === 'X';
}
