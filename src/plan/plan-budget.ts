import type { RuntimeConfig } from '../config/schema/manifest-schema.js';

/** A run's cost limits in US dollars; a limit that is absent does not apply. */
export interface RunBudgetLimits {
  /** At this cost no new step starts and running steps are stopped (budget_exhausted). */
  readonly ceilingUsd?: number;
  /** At this cost the run warns, once (budget_warning). */
  readonly warnAtUsd?: number;
}

/** `runtime.cost` as limits: Wave keeps a ledger only with `enabled: true` or a ceiling above 0, and 0 means no limit. */
export function resolveBudget(runtime: RuntimeConfig | undefined): RunBudgetLimits | undefined {
  const cost = runtime?.cost;
  const ceiling = cost?.budget_ceiling ?? 0;
  if (!cost || (cost.enabled !== true && ceiling <= 0)) return undefined;
  const warnAt = cost.warn_at ?? 0;
  if (ceiling <= 0 && warnAt <= 0) return undefined;
  return { ...(ceiling > 0 ? { ceilingUsd: ceiling } : {}), ...(warnAt > 0 ? { warnAtUsd: warnAt } : {}) };
}
