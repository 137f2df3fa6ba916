import PQueue from 'p-queue';
import { failureOfError, type Failure } from '../../core/errors/failure.js';
import { isFileSystemError } from '../../io-error.js';
import { onFailureOf, type PlannedStep } from '../../plan/plan-types.js';
import { letsDependentsRun } from '../../state/record/step-gate.js';
import { runStep } from '../steps/step-kinds.js';
import { emit, type RunContext } from './context.js';
import { StepRouter } from './step-router.js';

/** Where a step stands for scheduling its dependents. */
type Gate = 'waiting' | 'satisfied' | 'blocked';

/** What the scheduler is asked to run and how failures end it. */
export interface ScheduleOptions {
  /** halt: a failure stops new work and cancels running steps; continue: independent steps go on. */
  onFailure: 'halt' | 'continue';
  /** Steps to run; the others are left as they are. Undefined means all. */
  selected?: ReadonlySet<string>;
}

/**
 * Walks the plan's graph: each step whose dependencies let it run goes to the runner of its kind, up to
 * max_concurrency at once; a step whose dependency failed or was skipped is skipped; `halt` stops everything.
 */
export class Scheduler {
  /** Aborted to stop every running step and start no more. */
  readonly halt = new AbortController();
  private readonly queue: PQueue;
  /** The steps handed to the queue and not yet settled. */
  private readonly inFlight = new Set<string>();
  /** The steps neither queued nor skipped yet: schedule() looks at these only. */
  private unscheduled: readonly PlannedStep[];
  /** Wakes drain() when a step settles; one waiter, whatever number of steps runs. */
  private wake: (() => void) | undefined;
  /** What a queued step threw past its own handling, rethrown by drain() as a race of the steps would. */
  private crash: { error: unknown } | undefined;
  /** A step that counts failed the run. */
  failed = false;
  /** What ended the run from outside its steps' own outcomes: the run folder cannot be written, or a step crashed. */
  fatal: unknown;
  /** Graph routing and gate choices that go back: visits, edges, requeues. */
  private readonly router: StepRouter;

  constructor(
    private readonly context: RunContext,
    private readonly options: ScheduleOptions,
    private readonly outputs: Map<string, string>,
  ) {
    this.queue = new PQueue({ concurrency: context.plan.runtime.maxConcurrency });
    this.unscheduled = context.plan.steps;
    this.router = new StepRouter(context);
  }

  /** Stops the run for a reason outside a step's outcome; the first one is kept. */
  failRun(error: unknown): void {
    this.fatal ??= error;
    this.stop({ class: 'aborted', message: `halted: ${error instanceof Error ? error.message : String(error)}` });
  }

  /** Fails the run and stops its steps with `failure` (a budget reached, a halt). */
  stop(failure: Failure): void {
    this.failed = true;
    if (!this.halt.signal.aborted) this.halt.abort(failure);
  }

  /** Runs every step that can run, until none is running; then the steps no route reached are skipped (and those after them). */
  async drain(): Promise<void> {
    for (;;) {
      this.schedule();
      if (!this.inFlight.size) {
        if (this.halt.signal.aborted || !this.skipUnreached()) return;
        continue;
      }
      // One waiter, not a race of every queued step: each race adds a reaction to all of them, which the thousands
      // a long run queues turn into memory and time growing with the square of its size.
      await new Promise<void>((resolve) => (this.wake = resolve));
      if (this.crash) throw this.crash.error;
    }
  }

  /** Records the steps no route reached as skipped; false when there are none. */
  private skipUnreached(): boolean {
    const unreached = this.router.unreached((id) => !this.options.selected || this.options.selected.has(id));
    for (const { id, reason } of unreached) emit(this.context, { type: 'step_skipped', stepId: id, reason });
    return unreached.length > 0;
  }

  /** A queued step settled: it leaves the in-flight set and drain() looks again. */
  private settled(id: string, crash?: { error: unknown }): void {
    this.inFlight.delete(id);
    this.crash ??= crash;
    this.wake?.();
  }

  private gateOf(id: string, dependent: PlannedStep): Gate {
    const s = this.context.store.record.steps[id]!;
    if (letsDependentsRun(s)) return 'satisfied';
    if (s.status === 'failed' && this.router.takesFailureOf(dependent)) return 'satisfied';
    // A step not selected here counts as done, unless its part (run by another job) says it failed or was skipped.
    if (s.status === 'failed' || s.status === 'skipped' || s.status === 'rejected') return 'blocked';
    if (this.options.selected && !this.options.selected.has(id)) return 'satisfied';
    return 'waiting';
  }

  private schedule(): void {
    const { store } = this.context;
    let changed = true;
    while (changed && !this.halt.signal.aborted && this.router.completedAt === undefined) {
      changed = false;
      const left: PlannedStep[] = [];
      for (const step of this.unscheduled) {
        if (store.record.steps[step.id]!.status !== 'pending') continue;
        if (this.options.selected && !this.options.selected.has(step.id)) continue;
        if (this.router.waitsForRoute(step) || this.inFlight.has(step.id)) {
          left.push(step);
          continue;
        }
        const gates = step.dependencies.map((d) => [d, this.gateOf(d, step)] as const);
        const blocker = gates.find(([, g]) => g === 'blocked');
        if (blocker) {
          const reason = `dependency \`${blocker[0]}\` ${store.record.steps[blocker[0]]!.status}`;
          emit(this.context, { type: 'step_skipped', stepId: step.id, reason });
          changed = true;
        } else if (gates.every(([, g]) => g === 'satisfied')) {
          this.inFlight.add(step.id);
          this.queue
            .add(() => this.start(step))
            .then(
              () => this.settled(step.id),
              (error: unknown) => this.settled(step.id, { error }),
            );
        } else left.push(step);
      }
      this.unscheduled = left;
    }
  }

  private async start(step: PlannedStep): Promise<void> {
    if (this.halt.signal.aborted) return;
    const refused = this.router.visitRefusal(step);
    if (refused) return this.stop(refused);
    let outcome;
    try {
      outcome = await runStep({ context: this.context, step, outputs: this.outputs, signal: this.halt.signal });
    } catch (error) {
      // A step that throws (a run-folder write it could not make) is recorded as failed and stops the run; it never crashes it.
      this.failRun(this.recordCrash(step, error));
      return;
    }
    if (outcome.status === 'completed' || outcome.dependentsRun) this.outputs.set(step.id, outcome.output ?? '');
    const route = this.router.afterStep(step, outcome, (id) => id !== step.id && this.inFlight.has(id));
    // Requeued steps are looked at again (this one too, once it has settled).
    if (route.requeued) this.unscheduled = this.context.plan.steps.filter((s) => this.context.store.record.steps[s.id]!.status === 'pending');
    if (route.stop) return this.stop(route.stop);
    if (outcome.status !== 'failed' || step.optional || route.failureRouted) return;
    this.failed = true;
    // A contract's `continue`, or the step's `retry.on_failure: continue`: the run fails, but goes on.
    if (outcome.dependentsRun || onFailureOf(step) === 'continue') return;
    if (this.options.onFailure === 'halt') this.stop(haltReason(step.id, outcome.failure));
  }

  /** Records a step whose runner threw as failed, with the error as its failure; returns the error (an io_error for a disk fault). */
  private recordCrash(step: PlannedStep, error: unknown): unknown {
    const { store } = this.context;
    const reported = isFileSystemError(error) ? store.reportFault(error) : error;
    // A runner that throws is Wave's own fault unless it says otherwise (an io_error from the run folder).
    const failure = failureOfError(reported, 'internal');
    const attempt = Math.max(1, store.record.steps[step.id]!.attempts.length);
    emit(this.context, { type: 'step_failed', stepId: step.id, attempt, durationMs: 0, failure, optional: step.optional });
    return reported;
  }
}

function haltReason(stepId: string, failure?: Failure): Failure {
  return { class: 'aborted', message: `halted: step \`${stepId}\` failed${failure ? ` (${failure.class})` : ''}` };
}
