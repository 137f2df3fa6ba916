import type { Failure } from '../../core/errors/failure.js';
import { isAttemptStep, type AttemptStep } from '../../plan/plan-types.js';
import { emit, type RunContext } from '../run/context.js';
import { reworkContext, reworkEnv, type FailedWork } from './rework-context.js';
import { endStep, endStopped } from './step-end.js';
import type { StepOutcome, StepRun } from './step-run.js';

/** A rework round of a failed step: which step fixes its work, and what it is told. */
export interface ReworkRound {
  target: string;
  round: number;
  failure: Failure;
  /** The failed step's last attempt, its output and when the step began. */
  attempt: number;
  work: FailedWork;
  started: number;
}

/**
 * Runs the failed step's rework step (Wave's rework): the step is `reworking` while it runs, told what failed; its
 * attempts are recorded as attempts of kind `rework` of its own, linked to the failed step. Returns undefined when it
 * completed (its artifacts are the failed step's now), else how the failed step ends.
 */
export async function runReworkStep(run: StepRun<AttemptStep>, round: ReworkRound): Promise<StepOutcome | undefined> {
  const { context, step, signal } = run;
  const { target: targetId, failure, attempt, started } = round;
  emit(context, { type: 'step_reworking', stepId: step.id, target: targetId, round: round.round, failure });
  const target = context.plan.steps.find((s) => s.id === targetId);
  if (!target || !isAttemptStep(target) || !run.runRework) {
    // The loader refuses such a target; a plan built another way still fails clearly.
    return endStep(run, started, attempt, {
      failure: { class: 'internal', message: `no rework step \`${targetId}\` to run`, hint: 'Name a `rework_only` step of this pipeline.' },
    });
  }
  const rework = { of: step.id, round: round.round, context: reworkContext(step, round.round, failure, round.work), env: reworkEnv(step, round.round, failure) };
  // The rework step reads the failed step's output as a dependency's ({{ steps.<id>.output }}).
  const outputs = new Map(run.outputs).set(step.id, round.work.output);
  const runRework = run.runRework;
  const outcome = await oneAtATime(context, target.id, () => runRework({ step: target, rework, outputs }));
  if (outcome.status === 'completed') {
    adoptArtifacts(context, step.id, target.id);
    return undefined;
  }
  if (signal.aborted || outcome.status === 'cancelled') return endStopped(run, started, attempt);
  const why = outcome.failure;
  return endStep(run, started, attempt, {
    failure: {
      class: why?.class ?? 'internal',
      message: `rework step \`${target.id}\` also failed${why ? `: ${why.message}` : ''}`,
      hint: `See why with \`wave logs <run> ${target.id}\`; fix the rework step, then \`wave resume\` runs \`${step.id}\` again.`,
    },
  });
}

/** The rework steps running in each run: two steps naming the same one (contracts may share it) take turns, so its record is one run's at a time. */
const RUNNING = new WeakMap<RunContext['store'], Map<string, Promise<unknown>>>();

/** Runs `work` once the rework step `id` of this run is not running for another step. */
async function oneAtATime<T>(context: RunContext, id: string, work: () => Promise<T>): Promise<T> {
  const running = RUNNING.get(context.store) ?? new Map<string, Promise<unknown>>();
  RUNNING.set(context.store, running);
  const before = running.get(id) ?? Promise.resolve();
  const turn = before.then(work);
  running.set(
    id,
    turn.catch(() => undefined),
  );
  return turn;
}

/** The rework step's artifacts, saved again as the failed step's (Wave registers them under its keys): its dependents read them. */
function adoptArtifacts(context: RunContext, stepId: string, targetId: string): void {
  for (const artifact of context.store.record.steps[targetId]?.artifacts ?? []) {
    const type = artifact.type !== undefined ? { artifactType: artifact.type } : {};
    emit(context, { type: 'artifact_saved', stepId, name: artifact.name, path: artifact.path, bytes: artifact.bytes, ...type });
  }
}
