import { join } from 'node:path';
import type { Plan } from '../plan/plan-types.js';
import { eventsOfPart, readStepParts, writeStepPart, type StepPart } from '../state/run-parts.js';
import type { RunRecord } from '../state/record/run-record.js';
import type { RunStore } from '../state/run-store.js';

/** The steps other jobs ran, whose parts are in `<runsRoot>/<id>/parts/`: each part's status decides for its dependents. */
export function partSteps(plan: Plan, runId: string): Set<string> {
  return new Set(readStepParts(join(plan.runtime.runsRoot, runId)).keys());
}

/** The parts other jobs left in `<runsRoot>/<id>/parts/`, by step id. */
export function takeStepParts(plan: Plan, record: RunRecord): ReadonlyMap<string, StepPart> {
  return readStepParts(join(plan.runtime.runsRoot, record.id));
}

/** Appends the events of parts brought in to this job's run: their fold is the steps run elsewhere, and threads and `wave thread` see them. */
export function replayPartEvents(store: RunStore, parts: ReadonlyMap<string, StepPart>): void {
  for (const part of parts.values()) for (const event of eventsOfPart(part, store.record.id)) store.appendEvent(event);
}

/** Leaves a part for every step this process ran (all but those brought in), for the job that assembles the run. */
export function leaveStepParts(store: RunStore, plan: Plan, broughtIn: ReadonlySet<string>, selected?: ReadonlySet<string>): void {
  const events = store.readEvents();
  for (const step of plan.steps) {
    if (broughtIn.has(step.id) || (selected && !selected.has(step.id))) continue;
    writeStepPart(store.dir, store.record.steps[step.id]!, events);
  }
}
