import { join } from 'node:path';
import { ancestorsOf } from '../../core/dag.js';
import type { Plan, PlannedStep } from '../../plan/plan-types.js';
import { readRunRecord } from '../../state/record/run-record-file.js';
import type { RunRecord } from '../../state/record/run-record.js';
import { RUN_FILE } from '../../state/run-store.js';
import { collectRunOutputs } from '../run/run-outputs.js';
import { runArtifacts, type ArtifactLocation, type PipelineArtifacts } from './pipeline-artifacts.js';

/**
 * What a run where `step` starts a child hands the child: the run's own artifacts (under its pipeline's name), those of
 * the completed child runs of the steps `step` depends on, and what the run was itself handed (a loop iteration's child
 * reaches the pipeline around the loop).
 */
export function artifactsForChildOf(plan: Plan, record: () => RunRecord, dir: string, step: PlannedStep, handed?: PipelineArtifacts): PipelineArtifacts {
  const sources = new Map<string, () => Map<string, ArtifactLocation>>();
  const inherited = new Set((handed?.pipelines ?? []).filter((pipeline) => pipeline !== plan.pipelineName));
  const steps = new Map(plan.steps.map((s) => [s.id, s]));
  for (const ancestor of ancestorsOf(step.id, steps)) {
    for (const child of record().steps[ancestor]?.children ?? []) {
      if (child.status !== 'completed' || child.pipeline === plan.pipelineName) continue;
      const childDir = join(plan.runtime.runsRoot, child.runId);
      sources.set(child.pipeline, () => {
        const childRecord = readRunRecord(join(childDir, RUN_FILE));
        return runArtifacts(childRecord, childDir, childRecord.outputs);
      });
    }
  }
  sources.set(plan.pipelineName, () => runArtifacts(record(), dir, collectRunOutputs(plan, record(), dir)?.outputs));
  for (const pipeline of sources.keys()) inherited.delete(pipeline);
  return {
    pipelines: [...sources.keys(), ...inherited],
    locate: (pipeline, artifact) => (inherited.has(pipeline) ? handed!.locate(pipeline, artifact) : sources.get(pipeline)?.().get(artifact)),
  };
}
