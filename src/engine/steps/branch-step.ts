import type { BranchStep, SubPipelineStep } from '../../plan/plan-types.js';
import { emit } from '../run/context.js';
import { endChildStep } from './child-step-end.js';
import { resolveCompositionText } from './composition-text.js';
import { runChildPipeline } from './pipeline-step.js';
import type { StepRunner } from './step-run.js';

/** The case that means "run nothing": the step completes and its dependents go on. */
export const SKIP_CASE = 'skip';

/**
 * Wave's `branch`: `on` resolved (what names nothing known stays as written, so an unset `{{ env.profile }}` takes the
 * default), its case's child pipeline run as the step's (a `branch_arm` child), `skip` completing the step with nothing
 * run; a value with no case and no default fails the step.
 */
export const runBranchStep: StepRunner<BranchStep> = async (run) => {
  const { context, step } = run;
  const started = Date.now();
  emit(context, { type: 'step_began', stepId: step.id });
  const value = resolveCompositionText(context, step.id, step.on, run.outputs);
  const arm = Object.hasOwn(step.cases, value) ? step.cases[value]! : step.cases.default;
  if (arm === undefined) {
    const known = Object.keys(step.cases).join(', ');
    return endChildStep(run, started, { failure: { class: 'template_invalid', message: `branch value "${value}" has no matching case (${known}) and no default` } });
  }
  if (arm === SKIP_CASE) return endChildStep(run, started, { output: '' });
  const child: SubPipelineStep = { ...step, kind: 'pipeline', pipeline: arm, inject: [], extract: [], env: {} };
  return runChildPipeline({ ...run, step: child }, 'branch_arm', started);
};
