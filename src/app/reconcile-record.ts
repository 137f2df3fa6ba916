import type { Plan } from '../plan/plan-types.js';
import { markInterruptedAttempts } from '../state/interrupted-attempts.js';
import { reconcileWithEvents } from '../state/reconcile-events.js';
import { resetForResume } from '../state/reset-for-resume.js';
import type { RunStore } from '../state/run-store.js';

/**
 * Brings a run's record up to what its events say before a resume: what a killed process never wrote, its attempts
 * marked interrupted, and the steps to run again (from `fromStep` on, when given) reset.
 */
export function reconcileRecord(store: RunStore, plan: Plan, fromStep: string | undefined): void {
  const events = store.readEvents();
  store.update((r) => {
    reconcileWithEvents(r, events);
    markInterruptedAttempts(r, store.dir, events);
    resetForResume(r, plan, fromStep);
  });
}
