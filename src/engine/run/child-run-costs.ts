import type { RunEvent } from '../../events.js';

/** One step's cost in a child run: the sum of its settled attempts and requests, and its latest running figure. */
interface StepCost {
  settled: number;
  live: number;
}

/**
 * What a run's child runs (and theirs) are spending while they run, from their events on the shared bus, so that the
 * parent's budget counts them; a child's cost leaves this count once its parent step has been charged with it.
 */
export class ChildRunCosts {
  /** By run id, then by step id. */
  private readonly runs = new Map<string, Map<string, StepCost>>();

  /** Folds in another run's event; true when its cost changed. */
  observe(event: RunEvent): boolean {
    switch (event.type) {
      case 'step_tokens':
        if (event.costUsd === undefined) return false;
        this.step(event.runId, event.stepId).live = event.costUsd;
        return true;
      case 'attempt_finished':
      case 'model_request':
        this.step(event.runId, event.stepId).settled += event.costUsd ?? 0;
        return event.costUsd !== undefined;
      case 'child_run_finished':
        // A grandchild's cost moves into its parent child's step, where the event charges it.
        this.settle(event.childRunId);
        this.step(event.runId, event.stepId).settled += event.costUsd ?? 0;
        return event.costUsd !== undefined;
      default:
        return false;
    }
  }

  /** Forgets a child run whose cost its parent step now holds. */
  settle(runId: string): void {
    this.runs.delete(runId);
  }

  /** What the child runs still counted here have spent, in US dollars. */
  spent(): number {
    let sum = 0;
    for (const steps of this.runs.values()) for (const cost of steps.values()) sum += Math.max(cost.settled, cost.live);
    return sum;
  }

  private step(runId: string, stepId: string): StepCost {
    let steps = this.runs.get(runId);
    if (!steps) this.runs.set(runId, (steps = new Map<string, StepCost>()));
    let cost = steps.get(stepId);
    if (!cost) steps.set(stepId, (cost = { settled: 0, live: 0 }));
    return cost;
  }
}
