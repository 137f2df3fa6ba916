import { NO_TOKENS } from '../adapters/types.js';
import { EVENT_VERSION } from '../events.js';
import type { RunStore } from './run-store.js';
import { stopOrphanedAttempts } from './stop-orphans.js';

/** Records as cancelled a run whose driving process is gone: stops attempts it left behind, then records steps and run. */
export function recordOrphanCancelled(store: RunStore, now: Date = new Date()): void {
  stopOrphanedAttempts(store.record, store.dir);
  const ts = now.toISOString();
  const base = { v: EVENT_VERSION, ts, runId: store.record.id } as const;
  const cancelled: string[] = [];
  store.update((record) => {
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
