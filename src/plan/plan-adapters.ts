import type { ResolvedAdapter } from '../core/resolved-adapter.js';
import type { Plan, PlannedStep } from './plan-types.js';

/** Every adapter a step may call: its own, its fallbacks, its extract's and its judges'. */
export function stepAdapters(step: PlannedStep): ResolvedAdapter[] {
  return [step.adapter, ...step.fallbacks, ...(step.extract?.adapter ? [step.extract.adapter] : []), ...step.contracts.flatMap((c) => (c.judge ? [c.judge] : []))];
}

/** Every adapter a plan may call: each step's own, its fallbacks, its extract's and its judges'. */
export function planAdapters(plan: Plan): ResolvedAdapter[] {
  return plan.steps.flatMap(stepAdapters);
}
