import { NO_TOKENS } from '../core/tokens.js';
import { EVENT_VERSION } from '../events.js';
import { markInterruptedAttempts } from './interrupted-attempts.js';
import type { RunLock } from './run-lock.js';
import type { RunStore } from './run-store.js';
import { stopOrphanedAttempts } from './stop-orphans.js';

/**
 * Records as cancelled a run whose driving process is gone: stops attempts it left behind, records them as
 * interrupted, then records steps and run. Only the holder of the run's lock may.
 */
export function recordOrphanCancelled(store: RunStore, lock: RunLock, now: Date = new Date()): void {
  stopOrphanedAttempts(store.record, store.dir, lock);
  const ts = now.toISOString();
  const base = { v: EVENT_VERSION, ts, runId: store.record.id } as const;
  const cancelled: string[] = [];
  store.update((record) => {
    markInterruptedAttempts(record, store.dir);
    for (const step of Object.values(record.steps)) {
      if (step.status !== 'running' && step.status !== 'retrying') continue;
      step.status = 'cancelled';
      step.finishedAt = ts;
      if (step.startedAt) step.durationMs = Math.max(0, now.getTime() - Date.parse(step.startedAt)) || 0;
      cancelled.push(step.id);
    }
    record.status = 'cancelled';
    record.finishedAt = ts;
    record.durationMs = Math.max(0, now.getTime() - Date.parse(record.startedAt)) || 0;
  });
  for (const stepId of cancelled) store.appendEvent({ ...base, type: 'step_cancelled', stepId });
  const { record } = store;
  store.appendEvent({
    ...base,
    type: 'run_finished',
    status: 'cancelled',
    durationMs: record.durationMs ?? 0,
    tokens: record.tokens ?? { ...NO_TOKENS },
    ...(record.costUsd === undefined ? {} : { costUsd: record.costUsd }),
  });
  store.close();
}
