import { EVENT_VERSION, type RunEvent } from '../events.js';
import type { Plan } from '../plan/plan-types.js';
import type { RunRecord } from './record/run-record.js';

/**
 * The steps_reset event of a resume: every step that did not complete (and, with fromStep, that step and all after
 * it) goes back to pending, but a failed step whose failure a conditional step already routed on.
 */
export function resetForResume(record: RunRecord, plan: Plan, fromStep?: string, ts: string = new Date().toISOString()): Extract<RunEvent, { type: 'steps_reset' }> {
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const rerun = new Set<string>(fromStep ? [fromStep] : []);
  for (const id of plan.layers.flat()) {
    if (byId.get(id)!.dependencies.some((d) => rerun.has(d))) rerun.add(id);
  }
  // A failure a conditional step routed on is where the walk went from, not work left: the route that comes back runs it again.
  const routedOn = (id: string) =>
    record.steps[id]?.status === 'failed' && plan.steps.some((s) => s.kind === 'conditional' && s.dependencies.includes(id) && record.steps[s.id]?.status === 'completed');
  const reset = plan.steps.filter((step) => rerun.has(step.id) || (record.steps[step.id]?.status !== 'completed' && !routedOn(step.id)));
  const steps = reset.map((step) => ({ id: step.id, optional: step.optional, dependencies: [...step.dependencies] }));
  return { v: EVENT_VERSION, ts, runId: record.id, type: 'steps_reset', steps };
}
