import type { Plan } from '../plan/plan-types.js';
import { pendingStepRecord } from './new-run-record.js';
import type { RunRecord } from './run-record.js';

/** Puts every step that did not complete (and, with fromStep, that step and all after it) back to pending. */
export function resetForResume(record: RunRecord, plan: Plan, fromStep?: string): void {
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const rerun = new Set<string>(fromStep ? [fromStep] : []);
  for (const id of plan.layers.flat()) {
    if (byId.get(id)!.dependencies.some((d) => rerun.has(d))) rerun.add(id);
  }
  for (const step of plan.steps) {
    const s = record.steps[step.id];
    if (!s || s.status !== 'completed' || rerun.has(step.id)) record.steps[step.id] = { ...pendingStepRecord(step), ...(s && { attempts: s.attempts }) };
  }
  Object.assign(record, { status: 'pending', finishedAt: undefined });
}
