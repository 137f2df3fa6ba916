import type { ResolvedAdapter } from '../core/resolved-adapter.js';
import { isAttemptStep, type Plan, type PlannedStep } from './plan-types.js';

/** Every adapter a step may call: its own, its fallbacks, its extract's, its judges' and its reviewers'; none for a child pipeline's step. */
export function stepAdapters(step: PlannedStep): ResolvedAdapter[] {
  // A child pipeline's adapters are its own plan's.
  if (!isAttemptStep(step)) return [];
  const checkers = step.contracts.flatMap((c) => [...(c.judge ? [c.judge] : []), ...(c.reviewer ? [c.reviewer.adapter] : [])]);
  return [step.adapter, ...step.fallbacks, ...(step.extract?.adapter ? [step.extract.adapter] : []), ...checkers];
}

/** Every adapter a plan may call: each step's own, its fallbacks, its extract's, its judges' and its reviewers'. */
export function planAdapters(plan: Plan): ResolvedAdapter[] {
  return plan.steps.flatMap(stepAdapters);
}
