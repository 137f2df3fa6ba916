import { WaveError } from '../../core/errors/errors.js';
import type { ParentArtifacts } from '../../plan/parent-artifacts.js';
import { isAttemptStep, type IterateStep, type Plan, type SubPipelineStep } from '../../plan/plan-types.js';
import type { PipelineArtifacts } from '../artifacts/pipeline-artifacts.js';

/**
 * What a child step's child may name as `{{ artifacts.<name> }}` of this run: its `config.inject`, each of which must
 * exist by now (as in Wave), and the output artifacts its dependencies declare, which Wave passes unasked.
 */
export function parentArtifactsFor(plan: Plan, step: SubPipelineStep | IterateStep, artifacts: PipelineArtifacts): ParentArtifacts {
  const missing = step.inject.filter((name) => artifacts.locate(plan.pipelineName, name) === undefined);
  if (missing.length)
    throw new WaveError('artifact_missing', `step \`${step.id}\` hands its child ${missing.map((n) => `\`${n}\``).join(', ')}, which this run has not produced`, {
      hint: 'Name in `config.inject` an output artifact of a step this step depends on.',
    });
  const declared = step.dependencies.flatMap((id) => {
    const dependency = plan.steps.find((s) => s.id === id);
    return dependency && isAttemptStep(dependency) ? dependency.outputArtifacts.map((a) => a.name) : [];
  });
  return { pipeline: plan.pipelineName, names: [...new Set([...step.inject, ...declared])] };
}
