import type { ResolvedAdapter } from '../core/resolved-adapter.js';
import type { PlannedStep } from '../plan/plan-types.js';

/** Every adapter a step may call: its own, its fallbacks, its extract's and its judges'. */
export function stepAdapters(step: PlannedStep): ResolvedAdapter[] {
  return [step.adapter, ...step.fallbacks, ...(step.extract?.adapter ? [step.extract.adapter] : []), ...step.contracts.flatMap((c) => (c.judge ? [c.judge] : []))];
}
