import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_VERSION, type RunEvent } from '../events.js';
import type { RunRecord } from './record/run-record.js';
import { attemptsOf } from './step-logs.js';

type Interrupted = Extract<RunEvent, { type: 'attempt_interrupted' }>;

/**
 * An attempt_interrupted event for every attempt of an unfinished step that never recorded its end, including those
 * that reached the disk (an attempt-<n> folder) before their step_started event did. Call it only as the run's lock
 * holder, with the Wave process that drove the run gone.
 */
export function interruptedAttemptEvents(record: RunRecord, runDir: string, ts: string = new Date().toISOString()): Interrupted[] {
  const found: Interrupted[] = [];
  for (const step of Object.values(record.steps)) {
    if (step.status === 'completed' || step.status === 'skipped') continue;
    const known = new Map(step.attempts.map((a) => [a.attempt, a]));
    for (const n of attemptsOf(runDir, record, step.id)) {
      const attempt = known.get(n);
      if (attempt && (attempt.finishedAt !== undefined || attempt.interrupted)) continue;
      const { adapter, model, startedAt, pid } = attempt ?? attemptFromDisk(runDir, step.id, n);
      const named = { ...(model !== undefined ? { model } : {}), ...(pid !== undefined ? { pid } : {}) };
      found.push({ v: EVENT_VERSION, ts, runId: record.id, type: 'attempt_interrupted', stepId: step.id, attempt: n, adapter, startedAt, ...named });
    }
  }
  return found;
}

/** What the folder of an attempt no event announced says of it. */
function attemptFromDisk(runDir: string, stepId: string, n: number): { adapter: string; model?: string; startedAt: string; pid?: number } {
  const dir = join(runDir, 'steps', stepId, `attempt-${n}`);
  const pid = Number(readOr(join(dir, 'pid')));
  return { adapter: 'unknown', startedAt: folderTime(dir), ...(Number.isInteger(pid) && pid > 0 ? { pid } : {}) };
}

function folderTime(dir: string): string {
  try {
    return statSync(dir).mtime.toISOString();
  } catch {
    return new Date().toISOString();
  }
}

function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}
