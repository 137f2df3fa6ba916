import { existsSync, readdirSync } from 'node:fs';
import { readProcFile } from './proc-file.js';
import { hasExited, readProcessStat } from './proc-stat.js';

const HAS_PROC = process.platform === 'linux' && existsSync('/proc/self/environ') && existsSync('/proc/uptime');
/** The kernel's clock ticks per second for /proc times (USER_HZ), 100 on every Linux Wave runs on. */
const TICKS_PER_SECOND = 100;

/** The run and step a process was started for, as its environment carries them. */
export interface StepOwner {
  runId: string;
  stepId: string;
}

/** A moment to sweep from: processes started before it are never the step's. */
export interface SweepMark {
  /** Clock ticks since boot: the unit of a process's start time in /proc/<pid>/stat. */
  ticks: number;
  /** The last pid the kernel handed out (/proc/loadavg): pids are allocated upwards until they wrap. */
  lastPid: number;
}

const lastPid = (): number => Number(readProcFile('/proc/loadavg').trim().split(' ')[4]);

/** Now, as a sweep mark; the mark of boot (every process) when /proc cannot be read (Wave out of descriptors). */
export function sweepMark(): SweepMark {
  if (!HAS_PROC) return { ticks: 0, lastPid: 0 };
  try {
    return { ticks: Math.floor(Number(readProcFile('/proc/uptime').split(' ')[0]) * TICKS_PER_SECOND), lastPid: lastPid() };
  } catch {
    return { ticks: 0, lastPid: 0 };
  }
}

/** Past this many pids handed out since the mark, listing /proc is cheaper than trying each. */
const MAX_PIDS_TRIED = 2048;

/**
 * The pids that may have been handed out since the mark: each one from the mark's last pid to the current one when
 * they are few, else every process listed in /proc (after pids wrapped around, or without a mark).
 */
function pidsSince(mark: SweepMark): string[] {
  try {
    return pidsToRead(mark);
  } catch {
    return []; // /proc could not be read (Wave out of descriptors): the sweep is best effort
  }
}

function pidsToRead(mark: SweepMark): string[] {
  const nowLast = mark.lastPid === 0 ? 0 : lastPid();
  if (mark.lastPid !== 0 && nowLast >= mark.lastPid && nowLast - mark.lastPid <= MAX_PIDS_TRIED) {
    return Array.from({ length: nowLast - mark.lastPid }, (_, i) => String(mark.lastPid + 1 + i));
  }
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name));
}

function environOf(pid: string): string[] {
  try {
    return readProcFile(`/proc/${pid}/environ`).split('\0');
  } catch {
    return []; // Gone, or not ours to read.
  }
}

/**
 * Host pids of live processes started for this step since `mark`: their environment carries its WAVE_RUN_ID and
 * WAVE_STEP_ID. Only pids handed out since the mark are read, and synchronously: a few tiny /proc reads cost far
 * less this way than through the thread pool, and the sweep runs after every attempt.
 */
export function stepProcesses(owner: StepOwner, mark: SweepMark = { ticks: 0, lastPid: 0 }): number[] {
  if (!HAS_PROC) return [];
  const marks = [`WAVE_RUN_ID=${owner.runId}`, `WAVE_STEP_ID=${owner.stepId}`];
  const found: number[] = [];
  for (const pid of pidsSince(mark)) {
    if (Number(pid) === process.pid) continue;
    const stat = readProcessStat(pid);
    // The start time guards against pids that wrapped around; a tick of slack, as they are rounded down.
    if (!stat || hasExited(stat) || stat.startTime < mark.ticks - 1) continue;
    const environ = environOf(pid);
    if (marks.every((mark) => environ.includes(mark))) found.push(Number(pid));
  }
  return found;
}
