import { WaveError } from '../../core/errors/errors.js';
import type { ParentArtifacts } from '../../plan/parent-artifacts.js';
import { isAttemptStep, type IterateStep, type Plan, type SubPipelineStep } from '../../plan/plan-types.js';
import type { PipelineArtifacts } from '../artifacts/pipeline-artifacts.js';

/**
 * What a child step's child may name as `{{ artifacts.<name> }}`: its `config.inject`, each of which must exist by now
 * (this run's, else one the run was handed: in a loop iteration, the pipeline around the loop's, as in Wave), and the
 * output artifacts its dependencies declare, which Wave passes unasked.
 */
export function parentArtifactsFor(plan: Plan, step: SubPipelineStep | IterateStep, artifacts: PipelineArtifacts): ParentArtifacts {
  const offered: Record<string, string> = {};
  for (const id of step.dependencies) {
    const dependency = plan.steps.find((s) => s.id === id);
    if (dependency && isAttemptStep(dependency)) for (const artifact of dependency.outputArtifacts) offered[artifact.name] = plan.pipelineName;
  }
  const sources = [plan.pipelineName, ...artifacts.pipelines.filter((p) => p !== plan.pipelineName)];
  const missing: string[] = [];
  for (const name of step.inject) {
    const source = sources.find((pipeline) => artifacts.locate(pipeline, name) !== undefined);
    if (source) offered[name] = source;
    else missing.push(name);
  }
  if (missing.length)
    throw new WaveError('artifact_missing', `step \`${step.id}\` hands its child ${missing.map((n) => `\`${n}\``).join(', ')}, which this run has not produced`, {
      hint: 'Name in `config.inject` an output artifact of a step this step depends on.',
    });
  return offered;
}
