import type { AdapterConfig } from '../config/schema/manifest-schema.js';
import { isModelTier, modelForCli, resolveTier } from '../core/models/model-tiers.js';
import type { AdapterType } from '../core/resolved-adapter.js';

/**
 * An adapter's own model (`model`, else Wave's `default_model`) as its CLI gets it. A tier there resolves through the
 * adapter's tier_models or Wave's defaults; `balanced`, which means the adapter's default, leaves the CLI's own.
 * Undefined also for an unmapped tier, which the manifest checks refuse (model-tier-checks.ts).
 */
export function adapterModel(type: AdapterType, config: AdapterConfig): string | undefined {
  const model = config.model ?? config.default_model;
  if (!isModelTier(model)) return modelForCli(model, type);
  const resolved = resolveTier(model, { type, ...(config.tier_models ? { tierModels: config.tier_models } : {}) });
  return 'model' in resolved ? modelForCli(resolved.model, type) : undefined;
}
