import { join } from 'node:path';
import { installWaveCommand, WAVE_COMMAND_DIR } from '../steps/wave-command.js';
import { addTokens, NO_TOKENS } from '../../core/models/tokens.js';
import type { RunStatus } from '../../events.js';
import { isReworkOnly } from '../../plan/plan-types.js';
import type { RunRecord } from '../../state/record/run-record.js';
import { emit, type EventBody, type RunContext } from './context.js';
import { Scheduler, type ScheduleOptions } from './scheduler.js';
import { resolveRunOutputs } from './run-outputs.js';
import { watchBudget } from './run-budget.js';
import { completedOutputs } from './completed-outputs.js';

export interface ExecuteOptions extends ScheduleOptions {
  /** Cancels the run (Ctrl-C, `wave cancel`). */
  signal: AbortSignal;
  /** What checks before the run found worth recording (token scopes it could not check): emitted after run_started. */
  startEvents?: readonly EventBody[];
}

/** Runs the plan's steps as a dependency graph and returns the run's final status. */
export async function executeRun(context: RunContext, options: ExecuteOptions): Promise<RunStatus> {
  const { plan, store } = context;
  const started = Date.now();
  const scheduler = new Scheduler(context, options, completedOutputs(context.store));
  const cancelAll = () => scheduler.halt.abort(options.signal.reason ?? { class: 'aborted', message: 'cancelled' });
  options.signal.addEventListener('abort', cancelAll, { once: true });
  if (options.signal.aborted) cancelAll();
  // Nothing can run once the run folder cannot be written (resume on a full disk, say).
  if (store.fault) throw store.fault;
  try {
    installWaveCommand(store.dir);
  } catch (error) {
    throw store.reportFault(error, join(store.dir, WAVE_COMMAND_DIR));
  }
  const stopWatchingStore = store.onFault((error) => scheduler.failRun(error));
  const resumed = Object.values(store.record.steps).some((s) => s.status === 'completed');
  emit(context, { type: 'run_started', pipeline: plan.pipelineName, steps: plan.steps.map((s) => s.id), resumed, pid: process.pid });
  for (const event of options.startEvents ?? []) emit(context, event);
  // runtime.cost: at the ceiling nothing new starts and the running steps stop with the budget's failure. A child run
  // spends its parent's budget: the parent counts it (its events are on the parent's bus) and stops it by cancelling.
  const ownBudget = store.record.parentId === undefined ? plan.runtime.budget : undefined;
  const stopWatchingBudget = ownBudget ? watchBudget(context, ownBudget, (failure) => scheduler.stop(failure)) : () => {};
  await scheduler.drain();
  options.signal.removeEventListener('abort', cancelAll);
  stopWatchingStore();
  stopWatchingBudget();
  const status: RunStatus = options.signal.aborted && scheduler.fatal === undefined ? 'cancelled' : scheduler.failed ? failedOrRejected(store.record) : 'completed';
  finishRun(context, status, Date.now() - started);
  // The run is recorded as far as the disk allows; the caller reports why it failed (an io_error names the path).
  const error = scheduler.fatal ?? store.fault;
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a step's crash is rethrown as it was caught
  if (error !== undefined) throw error;
  return status;
}

function finishRun(context: RunContext, status: RunStatus, durationMs: number): void {
  const { store } = context;
  skipUnneededReworkSteps(context);
  // Before the run counts as finished: run.json holds its outputs by the time a reader sees it done.
  resolveRunOutputs(context);
  const steps = Object.values(store.record.steps);
  const tokens = steps.reduce((sum, s) => addTokens(sum, s.tokens), { ...NO_TOKENS });
  const costs = steps.filter((s) => s.costUsd !== undefined);
  const costUsd = costs.length ? costs.reduce((sum, s) => sum + s.costUsd!, 0) : undefined;
  emit(context, { type: 'run_finished', status: status as Exclude<RunStatus, 'pending' | 'running'>, durationMs, tokens, costUsd });
  store.flush();
}

/** A failed run is `rejected` when what stopped it is a step's rejection: a step rejected, none failed, the run not stopped from outside. */
function failedOrRejected(record: RunRecord): 'failed' | 'rejected' {
  const steps = Object.values(record.steps).filter((s) => !s.optional);
  const rejected = steps.some((s) => s.status === 'rejected') && !steps.some((s) => s.status === 'failed');
  return rejected && record.failure === undefined ? 'rejected' : 'failed';
}

/** Rework steps no step needed: skipped, saying so (they run only when a step's work fails). */
function skipUnneededReworkSteps(context: RunContext): void {
  for (const step of context.plan.steps) {
    if (!isReworkOnly(step) || context.store.record.steps[step.id]?.status !== 'pending') continue;
    emit(context, { type: 'step_skipped', stepId: step.id, reason: 'a rework step: no step needed it' });
  }
}
