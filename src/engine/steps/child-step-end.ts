import type { Failure } from '../../core/errors/failure.js';
import type { PlannedStep } from '../../plan/plan-types.js';
import { emit } from '../run/context.js';
import type { StepOutcome, StepRun } from './step-run.js';

/**
 * Records the end of a step that runs no attempts of its own (a child pipeline's, an iterate's, an aggregate's, a
 * branch's, a fanned-out step's): completed with its output, failed, cancelled when the run stopped it, or rejected
 * when its child run was (the scheduler sees that as failed: the run stops, and ends rejected).
 */
export function endChildStep(run: StepRun<PlannedStep>, started: number, ending: { failure?: Failure; output?: string; rejected?: boolean }): StepOutcome {
  const { context, step } = run;
  const durationMs = Date.now() - started;
  const { failure, output } = ending;
  if (failure && ending.rejected) {
    emit(context, { type: 'step_rejected', stepId: step.id, attempt: 1, durationMs, failure, optional: step.optional });
    return { status: 'failed', failure };
  }
  if (!failure) {
    const s = context.store.record.steps[step.id]!;
    emit(context, { type: 'step_completed', stepId: step.id, attempt: 1, durationMs, tokens: s.tokens, costUsd: s.costUsd });
    return { status: 'completed', output };
  }
  if (failure.class === 'aborted') {
    emit(context, { type: 'step_cancelled', stepId: step.id, failure, durationMs });
    return { status: 'cancelled', failure };
  }
  emit(context, { type: 'step_failed', stepId: step.id, attempt: 1, durationMs, failure, optional: step.optional });
  return { status: 'failed', failure };
}
