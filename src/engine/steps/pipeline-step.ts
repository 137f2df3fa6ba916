import { copyFile, mkdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { WaveError } from '../../core/errors/errors.js';
import { failureOfError } from '../../core/errors/failure.js';
import type { SubPipelineStep } from '../../plan/plan-types.js';
import { reasonOf } from '../attempt/attempt.js';
import type { ChildRunOutcome } from '../run/child-run-port.js';
import { emit, type RunContext } from '../run/context.js';
import { startOrResumeChild } from './step-child.js';
import type { StepOutcome, StepRun, StepRunner } from './step-run.js';
import type { ChildKind } from '../../events.js';
import { childOutput } from './child-output.js';
import { endChildStep } from './child-step-end.js';

/**
 * A child pipeline as the step's work (Wave's `pipeline:`): run to its end as a run of its own, or, when the step
 * already started one that did not complete (a killed or failed run being resumed), that child finished. Its
 * artifacts come back as the step's, its pipeline outputs as the step's output.
 */
export const runSubPipelineStep: StepRunner<SubPipelineStep> = async (run) => {
  emit(run.context, { type: 'step_began', stepId: run.step.id });
  return runChildPipeline(run, 'sub_pipeline', Date.now());
};

/** Runs the step's child (begun at `started`) and ends the step with it: what a child pipeline step and a branch's arm do. */
export async function runChildPipeline(run: StepRun<SubPipelineStep>, kind: ChildKind, started: number): Promise<StepOutcome> {
  const { context, step } = run;
  const deadline = step.timeoutMs !== undefined ? AbortSignal.timeout(step.timeoutMs) : undefined;
  const signal = deadline ? AbortSignal.any([run.signal, deadline]) : run.signal;
  let outcome: ChildRunOutcome;
  try {
    outcome = await startOrResumeChild(run, { kind, signal });
  } catch (error) {
    return endChildStep(run, started, { failure: failureOfError(error, 'internal') });
  }
  if (outcome.status !== 'completed') {
    if (deadline?.aborted && !run.signal.aborted)
      return endChildStep(run, started, {
        failure: { class: 'timeout', message: `the child run ${outcome.record.id} passed its ${step.timeoutMs! / 1000} s limit (config.timeout)` },
      });
    if (run.signal.aborted) return endChildStep(run, started, { failure: reasonOf(run.signal) });
    // A rejected child (its step found nothing to do) rejects the step, and so this run.
    const failure = outcome.failure ?? { class: 'internal', message: `child run ${outcome.record.id} ${outcome.status}` };
    return endChildStep(run, started, { failure, rejected: outcome.status === 'rejected' });
  }
  try {
    await saveChildArtifacts(context, step.id, step.extract, outcome);
  } catch (error) {
    return endChildStep(run, started, { failure: failureOfError(error, 'artifact_missing') });
  }
  return endChildStep(run, started, { output: childOutput(outcome) });
}

/**
 * The child's artifacts saved as the step's (a later child step's artifact of the same name wins, as in Wave), and the
 * `extract` ones once more as `<child pipeline>.<name>`; a missing extract fails the step.
 */
export async function saveChildArtifacts(context: RunContext, stepId: string, extract: readonly string[], child: ChildRunOutcome): Promise<void> {
  const byName = new Map(Object.values(child.record.steps).flatMap((s) => s.artifacts.map((artifact) => [artifact.name, { ...artifact, stepId: s.id }] as const)));
  const keep = [...byName.values()].map((artifact) => ({ ...artifact, as: artifact.name }));
  for (const name of extract) {
    const artifact = byName.get(name);
    if (!artifact)
      throw new WaveError('artifact_missing', `the child run ${child.record.id} produced no artifact \`${name}\``, {
        hint: "Name one of the child's artifacts in `config.extract`, or make the child produce it.",
      });
    keep.push({ ...artifact, as: `${child.record.pipeline}.${name}` });
  }
  const dir = context.store.artifactsDir(stepId);
  for (const artifact of keep) {
    const target = join(dir, artifact.as === artifact.name ? artifact.stepId : 'extract', basename(artifact.path));
    await mkdir(join(target, '..'), { recursive: true });
    await copyFile(join(child.dir, artifact.path), target);
    const { size } = await stat(target);
    const type = artifact.type !== undefined ? { artifactType: artifact.type } : {};
    emit(context, { type: 'artifact_saved', stepId, name: artifact.as, path: relative(context.store.dir, target), bytes: size, ...type });
  }
}
