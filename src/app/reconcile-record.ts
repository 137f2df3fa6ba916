import type { Plan } from '../plan/plan-types.js';
import { interruptedAttemptEvents } from '../state/interrupted-attempts.js';
import { resetForResume } from '../state/reset-for-resume.js';
import type { RunStore } from '../state/run-store.js';

/**
 * Records what a resume finds before it runs: the record is already the fold of the run's events, whatever a kill
 * left of run.json; added are the attempts a killed process never ended (interrupted) and the steps to run again
 * (from `fromStep` on, when given) put back to pending.
 */
export function reconcileRecord(store: RunStore, plan: Plan, fromStep: string | undefined): void {
  for (const event of interruptedAttemptEvents(store.record, store.dir)) store.appendEvent(event);
  store.appendEvent(resetForResume(store.record, plan, fromStep));
}
