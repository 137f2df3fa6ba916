import type { Failure } from '../../core/errors/failure.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import { reasonOf } from '../attempt/attempt.js';
import { emit } from '../run/context.js';
import type { StepOutcome, StepRun } from './step-run.js';

/** How a step ends: its failure (none: completed), its output, and what its failure does (the step's retry.on_failure by default). */
export interface StepEnding {
  failure?: Failure;
  output?: string;
  onFailure?: AttemptStep['retry']['onFailure'];
}

/** Records the step's end as an event and returns its outcome: completed, cancelled (aborted), skipped (`on_failure: skip`) or failed. */
export function endStep(run: StepRun<AttemptStep>, started: number, attempt: number, ending: StepEnding = {}): StepOutcome {
  const { context, step } = run;
  const { failure, output, onFailure = step.retry.onFailure } = ending;
  const durationMs = Date.now() - started;
  const status = !failure ? 'completed' : failure.class === 'aborted' ? 'cancelled' : onFailure === 'skip' ? 'skipped' : 'failed';
  const s = context.store.record.steps[step.id]!;
  if (status === 'skipped') {
    // Wave's `on_failure: skip`: the failure is kept on record, the step counts as skipped (its dependents are skipped too).
    const reason = `failed (${failure!.class}: ${failure!.message}); retry.on_failure: skip`;
    emit(context, { type: 'step_skipped', stepId: step.id, reason, failure, durationMs });
  } else if (status === 'completed') {
    emit(context, { type: 'step_completed', stepId: step.id, attempt, durationMs, tokens: s.tokens, costUsd: s.costUsd });
  } else if (status === 'cancelled') {
    emit(context, { type: 'step_cancelled', stepId: step.id, failure, durationMs });
  } else {
    emit(context, { type: 'step_failed', stepId: step.id, attempt, durationMs, failure: failure!, optional: step.optional });
  }
  return { status, output, failure };
}

/** The step stopped by the run (a cancel, a halt, the budget): failed or cancelled as the signal says, never set aside by `retry.on_failure: skip`. */
export function endStopped(run: StepRun<AttemptStep>, started: number, attempt: number): StepOutcome {
  return endStep(run, started, attempt, { failure: reasonOf(run.signal), onFailure: 'fail' });
}

/** A contract with `on_failure: rejected` failed: the step found nothing to do. It counts as failed for the scheduler (the run stops); the run ends rejected. */
export function endRejected(run: StepRun<AttemptStep>, started: number, attempt: number, failure: Failure): StepOutcome {
  const { context, step } = run;
  emit(context, { type: 'step_rejected', stepId: step.id, attempt, durationMs: Date.now() - started, failure, optional: step.optional });
  return { status: 'failed', failure };
}
