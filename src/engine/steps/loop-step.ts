import { join } from 'node:path';
import { loopBodyAddress } from '../../config/load/loop-body.js';
import { failureOfError, type Failure } from '../../core/errors/failure.js';
import type { LoopEnd } from '../../events.js';
import type { LoopStep } from '../../plan/plan-types.js';
import { RunStore } from '../../state/run-store.js';
import { reasonOf } from '../attempt/attempt.js';
import { artifactsForChildOf } from '../artifacts/child-artifacts.js';
import type { ChildRunOutcome } from '../run/child-run-port.js';
import { emit } from '../run/context.js';
import { completedOutputs } from '../run/completed-outputs.js';
import { childOutput } from './child-output.js';
import { endChildStep } from './child-step-end.js';
import { resolveCompositionText, stepReference } from './composition-text.js';
import { saveChildArtifacts } from './pipeline-step.js';
import type { StepRun, StepRunner } from './step-run.js';

/** What `until` must read (trimmed) to end the loop, as in Wave. */
const DONE = new Set(['true', 'done', 'yes']);

/**
 * Wave's `loop`: the sub-steps run as a graph of their own once per iteration, each iteration a child run of the loop's
 * body (resumable, with its own logs and status), until `until` reads true after an iteration or max_iterations ran (the
 * step completes then too, as in Wave). A failed iteration fails the step; the last iteration's artifacts and output
 * are the step's. An iteration an earlier run completed is not run again; one it left unfinished is finished.
 */
export const runLoopStep: StepRunner<LoopStep> = async (run) => {
  const { context, step } = run;
  const started = Date.now();
  emit(context, { type: 'step_began', stepId: step.id });
  let last: ChildRunOutcome | undefined;
  let reason: LoopEnd = 'max_iterations';
  let iteration = 0;
  while (iteration < step.maxIterations) {
    const earlier = context.store.record.steps[step.id]?.children?.[iteration];
    const reused = earlier?.status === 'completed';
    emit(context, { type: 'loop_iteration', stepId: step.id, iteration: iteration + 1, of: step.maxIterations, ...(reused ? { reused } : {}) });
    try {
      last = await runIteration(run, iteration);
    } catch (error) {
      return endChildStep(run, started, { failure: failureOfError(error, 'internal') });
    }
    if (last.status !== 'completed') return endChildStep(run, started, { failure: run.signal.aborted ? reasonOf(run.signal) : iterationFailure(step, iteration, last) });
    iteration++;
    if (step.until !== undefined && DONE.has(untilValue(run, iteration - 1, last).trim())) {
      reason = 'until';
      break;
    }
  }
  emit(context, { type: 'loop_ended', stepId: step.id, iterations: iteration, reason });
  try {
    await saveChildArtifacts(context, step.id, [], last!);
  } catch (error) {
    return endChildStep(run, started, { failure: failureOfError(error, 'artifact_missing') });
  }
  return endChildStep(run, started, { output: childOutput(last!) });
};

/** Iteration `iteration` (0-based): the step's child for it when an earlier run completed it, else that child finished, else a new one. */
async function runIteration(run: StepRun<LoopStep>, iteration: number): Promise<ChildRunOutcome> {
  const { context, step, signal } = run;
  const children = context.children;
  if (!children) throw new Error('this run cannot start child runs');
  // Iterations run one after another, so the step's children are its iterations in order.
  const earlier = context.store.record.steps[step.id]?.children?.[iteration];
  const { runsRoot } = context.plan.runtime;
  if (earlier?.status === 'completed') return { status: 'completed', record: RunStore.open(runsRoot, earlier.runId).record, dir: join(runsRoot, earlier.runId) };
  const artifacts = artifactsForChildOf(context.plan, () => context.store.record, context.store.dir, step, context.pipelineArtifacts);
  // The sub-steps' composition fields read the steps before the loop (and, in a nested loop, those around it).
  const enclosing = (name: string) => stepReference(context.store, name, run.outputs) ?? context.enclosing?.(name);
  const at = { stepId: step.id, signal, artifacts, enclosing };
  if (earlier) return children.resume({ ...at, runId: earlier.runId });
  const pipeline = loopBodyAddress(context.plan.pipelineFile, step.id, iteration);
  return children.run({ ...at, kind: 'loop_iteration', pipeline, input: context.plan.input });
}

/** `until` after an iteration: its sub-steps' outputs and artifacts, `{{ iteration }}`, then this run's values. */
function untilValue(run: StepRun<LoopStep>, iteration: number, child: ChildRunOutcome): string {
  const { context, step } = run;
  const steps = { record: child.record, dir: child.dir };
  const outputs = completedOutputs(steps);
  const subSteps = new Set(step.subSteps);
  return resolveCompositionText(context, step.id, step.until!, run.outputs, (name) => {
    if (name === 'iteration') return String(iteration);
    const [head, second] = name.split('.');
    return subSteps.has(head!) || (head === 'steps' && subSteps.has(second!)) ? stepReference(steps, name, outputs) : undefined;
  });
}

/** The failed iteration's child's failure, said as the loop's. */
function iterationFailure(step: LoopStep, iteration: number, child: ChildRunOutcome): Failure {
  const failure = child.failure ?? { class: 'internal', message: `child run ${child.record.id} ${child.status}` };
  return { ...failure, message: `loop iteration ${iteration + 1} of ${step.maxIterations}: ${failure.message}` };
}
