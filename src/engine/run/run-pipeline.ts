import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installWaveCommand, WAVE_COMMAND_DIR } from '../steps/wave-command.js';
import PQueue from 'p-queue';
import { failureOfError, type Failure } from '../../core/failure.js';
import { addTokens, NO_TOKENS } from '../../core/tokens.js';
import type { RunStatus } from '../../events.js';
import type { PlannedStep } from '../../plan/plan-types.js';
import { isFileSystemError } from '../../io-error.js';
import { letsDependentsRun } from '../../state/step-gate.js';
import { emit, type EventBody, type RunContext } from './context.js';
import { runStep } from '../steps/step-runner.js';
import { resolveRunOutputs } from './run-outputs.js';
import { watchBudget } from './run-budget.js';

export interface ExecuteOptions {
  /** halt (default): a failure stops new work and cancels running steps; continue: independent steps go on. */
  onFailure: 'halt' | 'continue';
  /** Steps to run; the others are left as they are. Undefined means all. */
  selected?: ReadonlySet<string>;
  /** Cancels the run (Ctrl-C, `wave cancel`). */
  signal: AbortSignal;
  /** What checks before the run found worth recording (token scopes it could not check): emitted after run_started. */
  startEvents?: readonly EventBody[];
}

/** Where a step stands for scheduling its dependents. */
type Gate = 'waiting' | 'satisfied' | 'blocked';

/** Runs the plan's steps as a dependency graph and returns the run's final status. */
export async function executeRun(context: RunContext, options: ExecuteOptions): Promise<RunStatus> {
  const { plan, store } = context;
  const started = Date.now();
  const outputs = loadCompletedOutputs(context);
  const halt = new AbortController();
  const cancelAll = () => halt.abort(options.signal.reason ?? { class: 'aborted', message: 'cancelled' });
  options.signal.addEventListener('abort', cancelAll, { once: true });
  if (options.signal.aborted) cancelAll();
  const queue = new PQueue({ concurrency: plan.runtime.maxConcurrency });
  const inFlight = new Map<string, Promise<void>>();
  let failed = false;
  // What ends the run from outside its steps' own outcomes: the run folder cannot be written, or a step crashed.
  let fatal: unknown;
  const failRun = (error: unknown) => {
    fatal ??= error;
    failed = true;
    if (!halt.signal.aborted) halt.abort({ class: 'aborted', message: `halted: ${error instanceof Error ? error.message : String(error)}` });
  };
  // Nothing can run once the run folder cannot be written (resume on a full disk, say).
  if (store.fault) throw store.fault;
  try {
    installWaveCommand(store.dir);
  } catch (error) {
    throw store.reportFault(error, join(store.dir, WAVE_COMMAND_DIR));
  }
  const stopWatchingStore = store.onFault(failRun);

  const gateOf = (id: string): Gate => {
    const s = store.record.steps[id]!;
    if (letsDependentsRun(s)) return 'satisfied';
    // A step not selected here counts as done, unless its part (run by another job) says it failed or was skipped.
    if (s.status === 'failed' || s.status === 'skipped') return 'blocked';
    if (options.selected && !options.selected.has(id)) return 'satisfied';
    return 'waiting';
  };

  const schedule = () => {
    let changed = true;
    while (changed && !halt.signal.aborted) {
      changed = false;
      for (const step of plan.steps) {
        if (inFlight.has(step.id) || store.record.steps[step.id]!.status !== 'pending') continue;
        if (options.selected && !options.selected.has(step.id)) continue;
        const gates = step.dependencies.map((d) => [d, gateOf(d)] as const);
        const blocker = gates.find(([, g]) => g === 'blocked');
        if (blocker) {
          skip(context, step, `dependency \`${blocker[0]}\` ${store.record.steps[blocker[0]]!.status}`);
          changed = true;
        } else if (gates.every(([, g]) => g === 'satisfied')) {
          inFlight.set(
            step.id,
            queue.add(() => start(step)).finally(() => inFlight.delete(step.id)),
          );
        }
      }
    }
  };

  const start = async (step: PlannedStep) => {
    if (halt.signal.aborted) return;
    let outcome;
    try {
      outcome = await runStep(context, step, outputs, halt.signal);
    } catch (error) {
      // A step that throws (a run-folder write it could not make) is recorded as failed and stops the run; it never crashes it.
      failRun(recordCrash(context, step, error));
      return;
    }
    if (outcome.status === 'completed' || outcome.dependentsRun) outputs.set(step.id, outcome.output ?? '');
    if (outcome.status === 'failed' && !step.optional) {
      failed = true;
      // A contract's `continue`, or the step's `retry.on_failure: continue`: the run fails, but goes on.
      if (outcome.dependentsRun || step.retry.onFailure === 'continue') return;
      if (options.onFailure === 'halt') halt.abort(haltReason(step.id, outcome.failure));
    }
  };

  emit(context, {
    type: 'run_started',
    pipeline: plan.pipelineName,
    steps: plan.steps.map((s) => s.id),
    resumed: Object.values(store.record.steps).some((s) => s.status === 'completed'),
    pid: process.pid,
  });
  for (const event of options.startEvents ?? []) emit(context, event);
  // runtime.cost: at the ceiling nothing new starts and the running steps stop with the budget's failure.
  const stopWatchingBudget = plan.runtime.budget
    ? watchBudget(context, plan.runtime.budget, (failure) => {
        failed = true;
        if (!halt.signal.aborted) halt.abort(failure);
      })
    : () => {};
  schedule();
  while (inFlight.size) {
    await Promise.race(inFlight.values());
    schedule();
  }
  options.signal.removeEventListener('abort', cancelAll);
  stopWatchingStore();
  stopWatchingBudget();
  const status: RunStatus = options.signal.aborted && fatal === undefined ? 'cancelled' : failed ? 'failed' : 'completed';
  finishRun(context, status, Date.now() - started);
  // The run is recorded as far as the disk allows; the caller reports why it failed (an io_error names the path).
  const error = fatal ?? store.fault;
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a step's crash is rethrown as it was caught
  if (error !== undefined) throw error;
  return status;
}

/** Records a step whose runner threw as failed, with the error as its failure; returns the error (an io_error for a disk fault). */
function recordCrash(context: RunContext, step: PlannedStep, error: unknown): unknown {
  const reported = isFileSystemError(error) ? context.store.reportFault(error) : error;
  // A runner that throws is Wave's own fault unless it says otherwise (an io_error from the run folder).
  const failure = failureOfError(reported, 'internal');
  emit(context, {
    type: 'step_failed',
    stepId: step.id,
    attempt: Math.max(1, context.store.record.steps[step.id]!.attempts.length),
    durationMs: 0,
    failure,
    optional: step.optional,
  });
  return reported;
}

function haltReason(stepId: string, failure?: Failure): Failure {
  return { class: 'aborted', message: `halted: step \`${stepId}\` failed${failure ? ` (${failure.class})` : ''}` };
}

function skip(context: RunContext, step: PlannedStep, reason: string): void {
  emit(context, { type: 'step_skipped', stepId: step.id, reason });
}

function finishRun(context: RunContext, status: RunStatus, durationMs: number): void {
  const { store } = context;
  // Before the run counts as finished: run.json holds its outputs by the time a reader sees it done.
  resolveRunOutputs(context);
  const steps = Object.values(store.record.steps);
  const tokens = steps.reduce((sum, s) => addTokens(sum, s.tokens), { ...NO_TOKENS });
  const costs = steps.filter((s) => s.costUsd !== undefined);
  const costUsd = costs.length ? costs.reduce((sum, s) => sum + s.costUsd!, 0) : undefined;
  emit(context, { type: 'run_finished', status: status as Exclude<RunStatus, 'pending' | 'running'>, durationMs, tokens, costUsd });
  store.flush();
}

/** The outputs of steps recorded earlier (a resumed run, parts of other jobs) whose dependents may run, read back from the run folder. */
function loadCompletedOutputs(context: RunContext): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const [id, step] of Object.entries(context.store.record.steps)) {
    const file = join(context.store.dir, 'steps', id, 'output.txt');
    if (letsDependentsRun(step) && existsSync(file)) outputs.set(id, readFileSync(file, 'utf8'));
  }
  return outputs;
}
