import { readFileSync } from 'node:fs';
import type { RunRecord } from './run-record.js';

/** Whether `pid` is a process started for this run (its environment carries WAVE_RUN_ID), so a reused pid is never killed. */
function belongsToRun(pid: number, runId: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`WAVE_RUN_ID=${runId}`);
  } catch {
    return false;
  }
}

/** Kills the process groups of attempts a killed `wave run` left behind; returns the pids stopped. */
export function stopOrphanedAttempts(record: RunRecord): number[] {
  const stopped: number[] = [];
  for (const step of Object.values(record.steps)) {
    if (step.status !== 'running' && step.status !== 'retrying') continue;
    const pid = step.attempts.at(-1)?.pid;
    if (!pid || !belongsToRun(pid, record.id)) continue;
    try {
      process.kill(-pid, 'SIGKILL');
      stopped.push(pid);
    } catch {
      // Already gone.
    }
  }
  return stopped;
}
