import type { ConditionalStep } from '../../plan/plan-types.js';
import { emit } from '../run/context.js';
import { endChildStep } from './child-step-end.js';
import type { StepRunner } from './step-run.js';

/** Wave's `type: conditional`: nothing runs; the step counts as a visit and its edges route (engine/run/step-router.ts). */
export const runConditionalStep: StepRunner<ConditionalStep> = (run) => {
  const started = Date.now();
  emit(run.context, { type: 'step_began', stepId: run.step.id });
  return Promise.resolve(endChildStep(run, started, { output: '' }));
};
