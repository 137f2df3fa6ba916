import type { RunEvent } from '../events.js';

/** A child run a sink shows: the run and step that started it, and how its lines are marked. */
export interface ShownChildRun {
  parentRunId: string;
  stepId: string;
  /** `review`, `review/item 2` (items counted from 1), `outer › inner` for a grandchild. */
  label: string;
}

/**
 * The runs one sink shows: the run it was made for (the first it hears of) and the child runs those runs start,
 * learned from their child_run_started events; any other run's events are not its to show.
 */
export class RunFamily {
  private root?: string;
  private readonly children = new Map<string, ShownChildRun>();

  /** Whether the event is of a run this sink shows; a child it names from one of them is shown from then on. */
  accept(event: RunEvent): boolean {
    this.root ??= event.runId;
    const parent = this.children.get(event.runId);
    if (event.runId !== this.root && !parent) return false;
    if (event.type === 'child_run_started') {
      const own = `${event.pipeline}${event.item !== undefined ? `/item ${event.item + 1}` : ''}`;
      this.children.set(event.childRunId, { parentRunId: event.runId, stepId: event.stepId, label: parent ? `${parent.label} › ${own}` : own });
    }
    return true;
  }

  /** The child run of this id, or undefined for the sink's own run. */
  child(runId: string): ShownChildRun | undefined {
    return this.children.get(runId);
  }
}
