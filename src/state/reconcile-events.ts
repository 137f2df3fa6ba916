import type { RunEvent } from '../events.js';
import type { RunRecord } from './run-record.js';

/**
 * Brings run.json up to date from events.ndjson after a kill: run.json is written in bursts, the
 * event log line by line, so a step whose completion reached only the log is not run again.
 */
export function reconcileWithEvents(record: RunRecord, events: readonly RunEvent[]): string[] {
  const recovered: string[] = [];
  for (const [id, step] of Object.entries(record.steps)) {
    if (step.status === 'completed') continue;
    const lastStart = events.findLastIndex((e) => e.type === 'step_started' && e.stepId === id);
    const after = events.slice(lastStart + 1).filter((e) => 'stepId' in e && e.stepId === id);
    const completed = after.find((e) => e.type === 'step_completed');
    if (lastStart < 0 || !completed || completed.type !== 'step_completed') continue;
    step.status = 'completed';
    step.durationMs = completed.durationMs;
    step.tokens = completed.tokens;
    step.costUsd = completed.costUsd;
    step.finishedAt = completed.ts;
    step.artifacts = after.flatMap((e) => (e.type === 'artifact_saved' ? [{ name: e.name, path: e.path, bytes: e.bytes }] : []));
    recovered.push(id);
  }
  return recovered;
}
