import { EVENT_VERSION } from '../events.js';
import { interruptedAttemptEvents } from './interrupted-attempts.js';
import type { RunLock } from './run-lock.js';
import type { RunStore } from './run-store.js';
import { stopOrphanedAttempts } from './stop-orphans.js';

/** Milliseconds from an ISO time to `now`; 0 when the time is unreadable. */
const since = (iso: string, now: Date) => Math.max(0, now.getTime() - Date.parse(iso)) || 0;

/**
 * Records as cancelled a run whose driving process is gone: stops attempts it left behind, records them as
 * interrupted, then records steps and run. Only the holder of the run's lock may.
 */
export function recordOrphanCancelled(store: RunStore, lock: RunLock, now: Date = new Date()): void {
  stopOrphanedAttempts(store.record, store.dir, lock);
  const ts = now.toISOString();
  const base = { v: EVENT_VERSION, ts, runId: store.record.id } as const;
  for (const event of interruptedAttemptEvents(store.record, store.dir, ts)) store.appendEvent(event);
  for (const step of Object.values(store.record.steps)) {
    if (step.status !== 'running' && step.status !== 'retrying') continue;
    store.appendEvent({ ...base, type: 'step_cancelled', stepId: step.id, ...(step.startedAt ? { durationMs: since(step.startedAt, now) } : {}) });
  }
  const { record } = store;
  const cost = record.costUsd === undefined ? {} : { costUsd: record.costUsd };
  store.appendEvent({ ...base, type: 'run_finished', status: 'cancelled', durationMs: since(record.startedAt, now), tokens: record.tokens, ...cost });
  store.close();
}
