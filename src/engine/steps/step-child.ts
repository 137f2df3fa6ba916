import { artifactsForChildOf } from '../artifacts/child-artifacts.js';
import type { ChildKind } from '../../events.js';
import type { AttemptStep, IterateStep, SubPipelineStep } from '../../plan/plan-types.js';
import type { ChildRunRecord } from '../../state/record/run-record.js';
import type { ChildRunOutcome } from '../run/child-run-port.js';
import { parentArtifactsFor } from './child-injections.js';
import { resolveCompositionText } from './composition-text.js';
import type { StepRun } from './step-run.js';

/** Which child of a step: its kind, the iterate item it runs for, the item's template values, and what stops it. */
export interface StepChildRequest {
  kind: ChildKind;
  item?: number;
  values?: (name: string) => string | undefined;
  signal: AbortSignal;
  /** The child's pipeline and input as they are, not the step's templates: a fanned-out step's worker. */
  fixed?: { pipeline: string; input: string };
}

/** A step that starts child runs: a child pipeline's, an iterate's, or a fanned-out attempt step's. */
type ChildStarting = SubPipelineStep | IterateStep | AttemptStep;

/** The step's latest child (for one iterate item, when given) that an earlier run of the step left on record. */
export function earlierChild(run: StepRun<ChildStarting>, item?: number): ChildRunRecord | undefined {
  return run.context.store.record.steps[run.step.id]?.children?.filter((child) => child.item === item).at(-1);
}

/** The step's earlier child when it did not complete (resumed), else a new one of its pipeline and input, resolved as Wave resolves them. */
export function startOrResumeChild(run: StepRun<ChildStarting>, request: StepChildRequest): Promise<ChildRunOutcome> {
  const { context, step, outputs } = run;
  const { kind, item, values, signal } = request;
  const children = context.children;
  if (!children) throw new Error('this run cannot start child runs');
  const earlier = earlierChild(run, item);
  const artifacts = artifactsForChildOf(context.plan, () => context.store.record, context.store.dir, step, context.pipelineArtifacts);
  const at = { stepId: step.id, signal, artifacts, ...(item !== undefined ? { item } : {}) };
  if (earlier && earlier.status !== 'completed') return children.resume({ ...at, runId: earlier.runId });
  if (request.fixed) return children.run({ ...at, kind, ...request.fixed });
  if (step.kind === 'agent' || step.kind === 'command') throw new Error(`step ${step.id} names no child pipeline`);
  const pipeline = resolveCompositionText(context, step.id, step.pipeline, outputs, values);
  // Wave: an input that resolves to nothing is the parent's.
  const input = (step.input !== undefined ? resolveCompositionText(context, step.id, step.input, outputs, values) : '') || context.plan.input;
  const parentArtifacts = parentArtifactsFor(context.plan, step, artifacts);
  return children.run({ ...at, kind, pipeline, input, env: step.env, parentArtifacts, ...(step.maxCycles !== undefined ? { maxCycles: step.maxCycles } : {}) });
}
