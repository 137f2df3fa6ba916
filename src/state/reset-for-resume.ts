import { EVENT_VERSION, type RunEvent } from '../events.js';
import type { Plan } from '../plan/plan-types.js';
import type { RunRecord } from './record/run-record.js';

/** The steps_reset event of a resume: every step that did not complete (and, with fromStep, that step and all after it) goes back to pending. */
export function resetForResume(record: RunRecord, plan: Plan, fromStep?: string, ts: string = new Date().toISOString()): Extract<RunEvent, { type: 'steps_reset' }> {
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const rerun = new Set<string>(fromStep ? [fromStep] : []);
  for (const id of plan.layers.flat()) {
    if (byId.get(id)!.dependencies.some((d) => rerun.has(d))) rerun.add(id);
  }
  const reset = plan.steps.filter((step) => record.steps[step.id]?.status !== 'completed' || rerun.has(step.id));
  const steps = reset.map((step) => ({ id: step.id, optional: step.optional, dependencies: [...step.dependencies] }));
  return { v: EVENT_VERSION, ts, runId: record.id, type: 'steps_reset', steps };
}
