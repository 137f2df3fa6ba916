import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stepProcesses } from '../process/step-processes.js';
import { WaveError } from '../core/errors/errors.js';
import type { RunLock } from './run-lock.js';
import type { RunRecord } from './record/run-record.js';

/** Whether `pid` is a process started for this run (its environment carries WAVE_RUN_ID), so a reused pid is never killed. */
function belongsToRun(pid: number, runId: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`WAVE_RUN_ID=${runId}`);
  } catch {
    return false;
  }
}

/** SIGKILLs a pid (or a group, negative); false when it is already gone. */
function kill(target: number): boolean {
  try {
    process.kill(target, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

/** The pids recorded in a step's attempt folders (each attempt writes `pid` as it starts). */
function attemptPids(runDir: string, stepId: string): number[] {
  const stepDir = join(runDir, 'steps', stepId);
  try {
    return readdirSync(stepDir)
      .filter((name) => name.startsWith('attempt-'))
      .flatMap((name) => {
        try {
          return [Number(readFileSync(join(stepDir, name, 'pid'), 'utf8'))];
        } catch {
          return [];
        }
      });
  } catch {
    return [];
  }
}

/**
 * Kills the process groups of attempts a killed `wave run` left behind; returns the pids stopped. Only the
 * run's lock holder may: anyone else would take the live steps of the run's owner for orphans.
 */
export function stopOrphanedAttempts(record: RunRecord, runDir: string, lock: RunLock): number[] {
  if (!lock.isHeld || resolve(lock.runDir) !== resolve(runDir)) throw new WaveError('internal', `stopping the orphans of run ${record.id} without holding its lock`);
  const stopped: number[] = [];
  for (const step of Object.values(record.steps)) {
    if (step.status === 'completed' || step.status === 'skipped') continue;
    const recorded = step.attempts.flatMap((a) => (a.pid ? [a.pid] : []));
    for (const pid of new Set([...recorded, ...attemptPids(runDir, step.id)])) {
      if (!Number.isInteger(pid) || pid <= 1 || !belongsToRun(pid, record.id)) continue;
      if (kill(-pid)) stopped.push(pid);
    }
    // A run killed between starting a step and recording its pid left processes only their environment names.
    for (const pid of stepProcesses({ runId: record.id, stepId: step.id })) if (kill(pid)) stopped.push(pid);
  }
  return stopped;
}
