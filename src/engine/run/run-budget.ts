import { budgetExhaustedFailure } from '../../state/record/budget-failure.js';
import type { Failure } from '../../core/errors/failure.js';
import type { RunEvent } from '../../events.js';
import type { RunBudgetLimits } from '../../plan/plan-budget.js';
import type { RunRecord, StepRecord } from '../../state/record/run-record.js';
import { ChildRunCosts } from './child-run-costs.js';
import { emit, type RunContext } from './context.js';

/** What one step had cost when this session began: its own total, else (a step reset to re-run) its earlier attempts'. */
function spentBefore(step: StepRecord): number {
  return step.costUsd ?? step.attempts.reduce((sum, a) => sum + (a.costUsd ?? 0), 0);
}

/**
 * A run's cost against its runtime.cost limits (Wave's cost.Ledger), counted live: what the run had spent before this
 * session (a resumed run's earlier steps and attempts), plus each step's running cost from its `step_tokens` events,
 * plus what its child runs (every other run on its bus) spend while they run.
 */
export class RunBudget {
  /** What the run had spent when this session began. */
  private readonly baseline: number;
  /** Each step's own figure at that moment, so that what it adds now is counted once. */
  private readonly startOf = new Map<string, number>();
  /** The latest running cost of each step this session (its step_tokens). */
  private readonly live = new Map<string, number>();
  private readonly children = new ChildRunCosts();
  private warned = false;
  private exhausted = false;

  constructor(
    private readonly limits: RunBudgetLimits,
    private readonly record: () => RunRecord,
  ) {
    const steps = Object.values(record().steps);
    this.baseline = steps.reduce((sum, s) => sum + spentBefore(s), 0);
    for (const s of steps) this.startOf.set(s.id, s.costUsd ?? 0);
  }

  /** The run's cost so far, in US dollars. */
  spent(): number {
    let added = 0;
    for (const s of Object.values(this.record().steps)) {
      const now = Math.max(this.live.get(s.id) ?? 0, s.costUsd ?? 0);
      added += Math.max(0, now - (this.startOf.get(s.id) ?? 0));
    }
    return this.baseline + added + this.children.spent();
  }

  /** Folds in an event that may change the cost; true when it did. */
  observe(event: RunEvent): boolean {
    if (event.runId !== this.record().id) return this.children.observe(event);
    // A finished child's cost is now the parent step's own (the event charged it): no longer counted as a child's.
    if (event.type === 'child_run_finished') this.children.settle(event.childRunId);
    if (event.type === 'step_tokens' && event.costUsd !== undefined) {
      this.live.set(event.stepId, event.costUsd);
      return true;
    }
    // The step's recorded cost now holds the attempt's final figure (and any extract or summary asks before it).
    return event.type === 'attempt_finished' || event.type === 'child_run_finished';
  }

  /** Which limit the cost has newly reached, each reported once: the warning first, the ceiling once and for all. */
  crossing(): 'warning' | 'exhausted' | undefined {
    if (this.exhausted) return undefined;
    const spent = this.spent();
    const { ceilingUsd, warnAtUsd } = this.limits;
    if (ceilingUsd !== undefined && spent >= ceilingUsd) {
      this.exhausted = true;
      return 'exhausted';
    }
    if (warnAtUsd !== undefined && spent >= warnAtUsd && !this.warned) {
      this.warned = true;
      return 'warning';
    }
    return undefined;
  }
}

/**
 * Watches the run's cost while it runs: a `budget_warning` once it reaches warn_at, and at the ceiling a
 * `budget_exhausted` event and `onExhausted` (which stops new steps and the running ones). Returns the unsubscribe.
 */
export function watchBudget(context: RunContext, limits: RunBudgetLimits, onExhausted: (failure: Failure) => void): () => void {
  const budget = new RunBudget(limits, () => context.store.record);
  const check = (step?: string) => {
    const crossing = budget.crossing();
    if (!crossing) return;
    const spentUsd = budget.spent();
    const at = step !== undefined ? { step } : {};
    const ceiling = limits.ceilingUsd !== undefined ? { ceilingUsd: limits.ceilingUsd } : {};
    if (crossing === 'warning') {
      emit(context, { type: 'budget_warning', spentUsd, warnAtUsd: limits.warnAtUsd!, ...ceiling, ...at });
      return;
    }
    emit(context, { type: 'budget_exhausted', spentUsd, ceilingUsd: limits.ceilingUsd!, ...at });
    onExhausted(budgetExhaustedFailure(spentUsd, limits.ceilingUsd!));
  };
  const unsubscribe = context.bus.subscribe((event) => {
    if (budget.observe(event)) check('stepId' in event ? event.stepId : undefined);
  });
  // A resumed run may be past a limit before any step starts.
  check();
  return unsubscribe;
}
