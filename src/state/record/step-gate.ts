import type { StepRecord } from './run-record.js';

/**
 * Whether a finished step lets its dependents run: it completed, it is optional and failed (or rejected), or a contract with
 * `on_failure: continue` failed it (the last check of a step is the one that ended it). Read from the record, so
 * a step recorded by another process (a part, a resumed run) gates its dependents as it did in its own run.
 */
export function letsDependentsRun(step: StepRecord): boolean {
  if (step.status === 'completed') return true;
  if (step.status !== 'failed' && step.status !== 'rejected') return false;
  return step.optional || (step.failure?.class === 'contract_failed' && step.contracts.at(-1)?.action === 'continue');
}
