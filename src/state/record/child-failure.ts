import type { Failure } from '../../core/errors/failure.js';
import type { RunRecord } from './run-record.js';

/** Why a child run did not complete, as its parent's step records it: the run's own reason, else its first rejected (a rejected run) or failed or cancelled step's, named. */
export function childFailure(record: RunRecord): Failure {
  if (record.failure) return record.failure;
  const step =
    Object.values(record.steps).find((s) => s.status === (record.status === 'rejected' ? 'rejected' : 'failed') && s.failure) ??
    Object.values(record.steps).find((s) => (s.status === 'failed' || s.status === 'cancelled') && s.failure);
  if (step?.failure) return { ...step.failure, message: `step ${step.id} of child run ${record.id}: ${step.failure.message}` };
  return { class: record.status === 'cancelled' ? 'aborted' : 'internal', message: `child run ${record.id} ${record.status}` };
}
