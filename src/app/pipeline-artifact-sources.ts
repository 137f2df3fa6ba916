import { WaveError } from '../core/errors/errors.js';
import type { PipelineArtifacts } from '../engine/artifacts/pipeline-artifacts.js';
import { isAttemptStep, type Plan } from '../plan/plan-types.js';

/** Where the run stands: what hands it other pipelines' artifacts, the steps it will run, and its parent run when it has one. */
export interface ArtifactSourceScope {
  artifacts?: PipelineArtifacts;
  runs: (stepId: string) => boolean;
  parentId?: string;
}

/**
 * Refuses, before any step runs, a run one of whose steps injects another pipeline's artifact (not optional) that
 * nothing hands it: that pipeline is neither its parent nor an earlier stage of `wave compose` (Wave fails such a
 * run only at the step, with "from step ''").
 */
export function requirePipelineSources(plan: Plan, scope: ArtifactSourceScope): void {
  for (const step of plan.steps) {
    if (!isAttemptStep(step) || !scope.runs(step.id)) continue;
    for (const ref of step.injectArtifacts) {
      const pipeline = ref.pipeline;
      if (pipeline === undefined || ref.optional || scope.artifacts?.pipelines.includes(pipeline)) continue;
      throw new WaveError(
        'artifact_source_missing',
        `step \`${step.id}\` injects artifact \`${ref.artifact}\` of pipeline \`${pipeline}\`, which only a run of \`${pipeline}\` hands over: as its parent, or as an earlier stage of \`wave compose\``,
        {
          location: step.location,
          hint:
            scope.parentId !== undefined
              ? `Resume the parent run instead: \`wave resume ${scope.parentId}\`.`
              : `Run both with \`wave compose ${pipeline} ${plan.pipelineName}\`, or start this pipeline from a \`pipeline:\` step of \`${pipeline}\`.`,
        },
      );
    }
  }
}
