import type { ResolvedAdapter } from '../core/resolved-adapter.js';
import { isAttemptStep, type Plan, type PlannedStep } from './plan-types.js';

/** Every adapter a step may call: its own, its fallbacks, its extract's and its judges'; none for a child pipeline's step. */
export function stepAdapters(step: PlannedStep): ResolvedAdapter[] {
  // A child pipeline's adapters are its own plan's.
  if (!isAttemptStep(step)) return [];
  return [step.adapter, ...step.fallbacks, ...(step.extract?.adapter ? [step.extract.adapter] : []), ...step.contracts.flatMap((c) => (c.judge ? [c.judge] : []))];
}

/** Every adapter a plan may call: each step's own, its fallbacks, its extract's and its judges'. */
export function planAdapters(plan: Plan): ResolvedAdapter[] {
  return plan.steps.flatMap(stepAdapters);
}
