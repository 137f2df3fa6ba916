import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NO_TOKENS } from '../core/tokens.js';
import type { Failure } from '../core/failure.js';
import type { RunEvent } from '../events.js';
import type { AttemptRecord, RunRecord } from './run-record.js';
import { attemptsOf } from './step-logs.js';

/** The failure of an attempt whose Wave process was killed before it could record the attempt's end. */
export const INTERRUPTED_FAILURE: Failure = { class: 'aborted', message: 'interrupted: wave run was killed' };

/**
 * Records as interrupted every attempt of an unfinished step that never recorded its end, including those
 * that reached the disk (an attempt-<n> folder) before run.json was written; returns `step#attempt` of each.
 * Call it only as the run's lock holder, with the Wave process that drove the run gone.
 */
export function markInterruptedAttempts(record: RunRecord, runDir: string, events: readonly RunEvent[] = []): string[] {
  const marked: string[] = [];
  for (const step of Object.values(record.steps)) {
    if (step.status === 'completed' || step.status === 'skipped') continue;
    const known = new Map(step.attempts.map((a) => [a.attempt, a]));
    for (const n of attemptsOf(runDir, record, step.id)) {
      let attempt = known.get(n);
      if (!attempt) {
        attempt = attemptFromDisk(runDir, step.id, n, events);
        step.attempts.push(attempt);
      }
      if (attempt.finishedAt !== undefined || attempt.interrupted) continue;
      Object.assign(attempt, { interrupted: true, failure: { ...INTERRUPTED_FAILURE } });
      marked.push(`${step.id}#${n}`);
    }
    step.attempts.sort((a, b) => a.attempt - b.attempt);
  }
  return marked;
}

/** An attempt run.json never heard of, rebuilt from its step_started event and its folder. */
function attemptFromDisk(runDir: string, stepId: string, n: number, events: readonly RunEvent[]): AttemptRecord {
  const dir = join(runDir, 'steps', stepId, `attempt-${n}`);
  const started = events.findLast((e) => e.type === 'step_started' && e.stepId === stepId && e.attempt === n);
  const attempt: AttemptRecord = {
    attempt: n,
    adapter: started?.type === 'step_started' ? started.adapter : 'unknown',
    startedAt: started?.ts ?? folderTime(dir),
    tokens: { ...NO_TOKENS },
  };
  if (started?.type === 'step_started' && started.model) attempt.model = started.model;
  const pid = Number(readOr(join(dir, 'pid')));
  if (Number.isInteger(pid) && pid > 0) attempt.pid = pid;
  return attempt;
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
