import type { ResolvedAdapter } from '../core/resolved-adapter.js';
import type { Plan } from './plan-types.js';

/** Every adapter a plan may call: each step's own, its fallbacks, its extract's and its judges'. */
export function planAdapters(plan: Plan): ResolvedAdapter[] {
  return plan.steps.flatMap((step) => [
    step.adapter,
    ...step.fallbacks,
    ...(step.extract?.adapter ? [step.extract.adapter] : []),
    ...step.contracts.flatMap((contract) => (contract.judge ? [contract.judge] : [])),
  ]);
}
