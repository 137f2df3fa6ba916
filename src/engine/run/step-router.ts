import { COMPLETE_TARGET, type EdgeCondition } from '../../config/schema/graph-schema.js';
import type { Failure } from '../../core/errors/failure.js';
import type { RouteOutcome } from '../../events.js';
import { maxVisitsOf } from '../../plan/plan-graph.js';
import type { PlannedStep } from '../../plan/plan-types.js';
import type { StepRecord } from '../../state/record/run-record.js';
import type { StepOutcome } from '../steps/step-run.js';
import { emit, type RunContext } from './context.js';
import { stepContextValues } from './step-context.js';

/** How many identical failures in a row of one step stop its loop (Wave's circuit breaker). */
const SAME_FAILURES_TO_STOP = 3;
/** How much of a failure's text the circuit breaker compares (Wave's). */
const FAILURE_TEXT_COMPARED = 500;

/** What the scheduler does after a step's routing: whether its failure was routed on (not the run's), steps to schedule again, or why the run stops. */
export interface RouteResult {
  failureRouted: boolean;
  requeued: boolean;
  stop?: Failure;
}

/**
 * The one home of graph routing and of gate choices that go back: visit counts and their limits, edges read against
 * the outcome and context of a step, requeues of a target that already ran (with everything after it), the circuit
 * breaker, and the steps no route reached. A pipeline without edges or gate targets passes through in O(1) per step.
 */
export class StepRouter {
  private readonly byId: ReadonlyMap<string, PlannedStep>;
  /** Edge targets whose dependencies all route by edges (but the first step, where Wave's walk starts): they run only when a route sends the walk there. */
  private readonly routeOnly: ReadonlySet<string>;
  private totalVisits: number;
  /** Set when an edge went to `_complete`: nothing new starts. */
  completedAt: string | undefined;
  private readonly recentFailures = new Map<string, string[]>();

  constructor(private readonly context: RunContext) {
    const { steps } = context.plan;
    this.byId = new Map(steps.map((s) => [s.id, s]));
    const targets = new Set(steps.flatMap((s) => (s.edges ?? []).map((e) => e.target)));
    const entered = (s: PlannedStep) => s !== steps[0] && targets.has(s.id) && s.dependencies.every((d) => this.byId.get(d)?.edges?.length);
    this.routeOnly = new Set(steps.filter(entered).map((s) => s.id));
    this.totalVisits = context.plan.graph ? Object.values(context.store.record.steps).reduce((sum, s) => sum + (s.visits ?? 0), 0) : 0;
  }

  /** Whether the step waits for a route before it may run. */
  waitsForRoute(step: PlannedStep): boolean {
    return this.routeOnly.size > 0 && this.routeOnly.has(step.id) && this.recordOf(step.id).routedBy === undefined;
  }

  /** Whether a failed dependency lets the step run: a conditional step routes on the failure. */
  takesFailureOf(step: PlannedStep): boolean {
    return step.kind === 'conditional';
  }

  /** Why the step may not run again (its max_visits, the run's max_step_visits), recorded as its failure; undefined: it runs, counted. */
  visitRefusal(step: PlannedStep): Failure | undefined {
    const record = this.recordOf(step.id);
    if (record.resumedVisit) return undefined;
    const max = maxVisitsOf(step);
    const graph = this.context.plan.graph;
    let failure: Failure | undefined;
    if ((record.visits ?? 0) >= max)
      failure = {
        class: 'route_stopped',
        message: `step \`${step.id}\` reached its limit of ${max} visits (max_visits)`,
        hint: `Raise \`max_visits\` of step \`${step.id}\`, or see in \`wave status\` why its loop does not end.`,
      };
    else if (graph && this.totalVisits >= graph.maxStepVisits)
      failure = {
        class: 'route_stopped',
        message: `the run reached its limit of ${graph.maxStepVisits} step visits (max_step_visits) before step \`${step.id}\``,
        hint: "Raise the pipeline's `max_step_visits`, or see in `wave status` which loop does not end.",
      };
    if (failure) return this.fail(step, failure);
    this.totalVisits++;
    return undefined;
  }

  /** After a step ended: its edges, else its gate choice's target, else (a failure) whether a conditional step after it takes the failure. */
  afterStep(step: PlannedStep, outcome: StepOutcome, isRunning: (id: string) => boolean): RouteResult {
    const none: RouteResult = { failureRouted: false, requeued: false };
    if (outcome.status !== 'completed' && outcome.status !== 'failed') return none;
    const failed = outcome.status === 'failed' && !outcome.dependentsRun && !step.optional;
    if (failed && !step.edges?.length && !this.failureFlowsOn(step)) return none;
    if (failed) {
      const repeated = this.repeatedFailure(step, outcome.failure);
      if (repeated) return { ...none, stop: this.fail(step, repeated) };
    } else this.recentFailures.delete(step.id);
    if (step.edges?.length) return { ...this.follow(step, isRunning), failureRouted: failed };
    if (outcome.route !== undefined) return { ...this.routeTo(step, { target: outcome.route, outcome: 'success' }, isRunning), failureRouted: failed };
    return { ...none, failureRouted: failed };
  }

  /** Steps left pending that no route reached (or all, once the walk reached `_complete`), each with why; called when nothing runs. */
  unreached(isSelected: (id: string) => boolean): Array<{ id: string; reason: string }> {
    const pending = this.context.plan.steps.filter((s) => this.recordOf(s.id).status === 'pending' && isSelected(s.id));
    if (this.completedAt !== undefined) return pending.map((s) => ({ id: s.id, reason: `the walk reached \`_complete\` at step \`${this.completedAt}\`` }));
    return pending.filter((s) => this.waitsForRoute(s)).map((s) => ({ id: s.id, reason: 'no edge led here' }));
  }

  /** A failed step without edges whose dependents are all conditional steps: they route on its failure. */
  private failureFlowsOn(step: PlannedStep): boolean {
    const dependents = this.context.plan.steps.filter((s) => s.dependencies.includes(step.id));
    return dependents.length > 0 && dependents.every((s) => s.kind === 'conditional');
  }

  /** Takes the first edge whose condition holds against the step's outcome and context (a conditional step's: the step's before it). */
  private follow(step: PlannedStep, isRunning: (id: string) => boolean): Omit<RouteResult, 'failureRouted'> {
    const source = this.outcomeSource(step);
    const outcome: RouteOutcome = this.recordOf(source).status === 'completed' || this.recordOf(source).status === 'pending' ? 'success' : 'failure';
    const values = stepContextValues(this.context.store.dir, this.recordOf(source));
    const edge = step.edges!.find((e) => holds(e.condition, outcome, values));
    if (!edge) {
      const stop: Failure = {
        class: 'route_stopped',
        message: `no edge of step \`${step.id}\` matched (outcome=${outcome})`,
        hint: `Add an edge without a condition last to step \`${step.id}\`, so that the walk always has somewhere to go.`,
      };
      return { requeued: false, stop: this.fail(step, stop) };
    }
    return this.routeTo(step, { target: edge.target, outcome, ...(edge.when ? { when: edge.when } : {}) }, isRunning);
  }

  /** Whose outcome a step's edges read: its own; a conditional step's, the step that routed here, else a failed dependency, else its last. */
  private outcomeSource(step: PlannedStep, depth = 0): string {
    if (step.kind !== 'conditional' || depth > this.byId.size) return step.id;
    const record = this.recordOf(step.id);
    const from = record.routedBy ?? step.dependencies.find((d) => this.recordOf(d).status === 'failed') ?? step.dependencies.at(-1);
    const source = from !== undefined ? this.byId.get(from) : undefined;
    return source ? this.outcomeSource(source, depth + 1) : step.id;
  }

  /** Sends the walk to the target: `_complete` ends it; a step that already ran goes back to pending with every step after it. */
  private routeTo(step: PlannedStep, route: { target: string; outcome: RouteOutcome; when?: string }, isRunning: (id: string) => boolean): Omit<RouteResult, 'failureRouted'> {
    if (route.target === COMPLETE_TARGET) this.completedAt = step.id;
    const status = this.context.store.record.steps[route.target]?.status;
    const rerun = status !== undefined && status !== 'pending' && !isRunning(route.target);
    // A dependent not begun and not routed is pending already: nothing to put back.
    const back = (id: string) => id === step.id || (!isRunning(id) && (this.recordOf(id).status !== 'pending' || this.recordOf(id).routedBy !== undefined));
    const requeued = rerun ? this.withDependents(route.target).filter(back) : [];
    emit(this.context, { type: 'step_routed', stepId: step.id, ...route, requeued });
    return { requeued: requeued.length > 0 };
  }

  /**
   * The step and every step that depends on it, transitively, in plan order; not through a step only a route enters
   * (a route there puts it back with its own dependents), so a loop's fix step not reached again keeps its last visit.
   */
  private withDependents(id: string): string[] {
    const found = new Set([id]);
    for (const s of this.context.plan.steps) if (!this.routeOnly.has(s.id) && s.dependencies.some((d) => found.has(d))) found.add(s.id);
    return this.context.plan.steps.filter((s) => found.has(s.id)).map((s) => s.id);
  }

  /** The circuit breaker: this failure (with the output it ended on) is the step's third identical one in a row. */
  private repeatedFailure(step: PlannedStep, failure: Failure | undefined): Failure | undefined {
    const text = comparedText([failure?.message ?? '', ...(this.recordOf(step.id).result?.lines ?? [])].join('\n'));
    const recent = [...(this.recentFailures.get(step.id) ?? []), text].slice(-SAME_FAILURES_TO_STOP);
    this.recentFailures.set(step.id, recent);
    if (recent.length < SAME_FAILURES_TO_STOP || recent.some((t) => t !== text)) return undefined;
    return {
      class: 'route_stopped',
      message: `step \`${step.id}\` failed the same way ${SAME_FAILURES_TO_STOP} times in a row: ${failure?.message ?? ''}`,
      hint: `Fix what fails in step \`${step.id}\`: going round the loop again would fail the same way.`,
    };
  }

  /** Records the failure as the step's (what `wave status` shows) and returns it. */
  private fail(step: PlannedStep, failure: Failure): Failure {
    const attempt = Math.max(1, this.recordOf(step.id).attempts.length);
    emit(this.context, { type: 'step_failed', stepId: step.id, attempt, durationMs: 0, failure, optional: step.optional });
    return failure;
  }

  private recordOf(id: string): StepRecord {
    return this.context.store.record.steps[id]!;
  }
}

/** Whether an edge's condition holds for the outcome and the published context values. */
function holds(condition: EdgeCondition, outcome: RouteOutcome, values: ReadonlyMap<string, string>): boolean {
  if (condition.on === 'always') return true;
  if (condition.on === 'outcome') return condition.value === outcome;
  return values.get(condition.key) === condition.value;
}

/** A failure's text as the circuit breaker compares it: lines trimmed, blank ones dropped, cut to 500 characters. */
function comparedText(message: string): string {
  return message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n')
    .slice(0, FAILURE_TEXT_COMPARED);
}
