import { AGENT_CLI_MODELS } from './agent-cli-models.js';
import { AGENT_CLI_TYPES, type AdapterType, type ResolvedAdapter } from '../resolved-adapter.js';

/**
 * Wave's model tiers (internal/pipeline/routing.go). A model value that is exactly one of these names a tier; any
 * other value — `fastest`, `Cheapest` — is a model name, as Wave's resolveTierModel reads it.
 */
export const MODEL_TIERS = ['cheapest', 'balanced', 'strongest'] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

/** Whether a model value names a tier. */
export function isModelTier(model: unknown): model is ModelTier {
  return typeof model === 'string' && (MODEL_TIERS as readonly string[]).includes(model);
}

/**
 * Wave's DefaultComplexityMap (internal/manifest/types.go) by adapter type: the agent CLIs' `tierDefaults` that map
 * any tier (Claude's model ids, for claude adapters only); `balanced` is the adapter's own default there.
 */
export const WAVE_TIER_DEFAULTS: Readonly<Partial<Record<AdapterType, Readonly<Partial<Record<ModelTier, string>>>>>> = Object.fromEntries(
  AGENT_CLI_TYPES.map((type) => [type, AGENT_CLI_MODELS[type].tierDefaults] as const).filter(([, defaults]) => Object.keys(defaults).length > 0),
);

/** An adapter's `tier_models`: the model each tier stands for on it. */
export type TierModels = Readonly<Partial<Record<ModelTier, string>>>;

/** The model `tier_models` gives a tier, if any; each key named, so the schema's reader check (test/config/schema-leaves) sees it read. */
function mappedModel(tier: ModelTier, tierModels: TierModels | undefined): string | undefined {
  switch (tier) {
    case 'cheapest':
      return tierModels?.cheapest;
    case 'balanced':
      return tierModels?.balanced;
    case 'strongest':
      return tierModels?.strongest;
  }
}

/** What a tier is resolved against: the adapter's type, its `tier_models` and its default model. */
export interface TierTarget {
  type: AdapterType;
  tierModels?: TierModels;
  /** The adapter's own model (`model` / `default_model`), already free of tiers. */
  defaultModel?: string;
}

/** A tier's model on an adapter (`undefined`: the CLI's own default), or `unmapped` when nothing maps it. */
export type TierResolution = { model: string | undefined } | { unmapped: true };

/**
 * The model a tier names on an adapter, in Wave's order (executor_overrides.go resolveTierModel, then the adapter's
 * default_model): the adapter's `tier_models`, else Wave's default for its type, else — for `balanced` — the
 * adapter's default model.
 */
export function resolveTier(tier: ModelTier, target: TierTarget): TierResolution {
  const mapped = mappedModel(tier, target.tierModels);
  if (mapped) return { model: mapped };
  const waveDefault = WAVE_TIER_DEFAULTS[target.type]?.[tier];
  if (waveDefault) return { model: waveDefault };
  if (tier === 'balanced') return { model: target.defaultModel };
  return { unmapped: true };
}

/** The adapter types whose CLI Wave runs without `--model` for the model `default` (opencode.go, gemini.go): their own choice. */
const DEFAULT_MEANS_NONE: ReadonlySet<AdapterType> = new Set(AGENT_CLI_TYPES.filter((type) => AGENT_CLI_MODELS[type].defaultMeansNone));

/** A resolved model as the CLI gets it: `default` on OpenCode and Gemini means none, as in Wave. */
export function modelForCli(model: string | undefined, type: AdapterType): string | undefined {
  return model === 'default' && DEFAULT_MEANS_NONE.has(type) ? undefined : model;
}

/** Where a tier must be mapped and which defaults exist, for a hint. */
export function tierHint(tier: ModelTier, adapterName: string, type: AdapterType): string {
  const defaults = WAVE_TIER_DEFAULTS[type];
  const known = defaults ? ` (Wave's defaults map ${Object.keys(defaults).join(' and ')} for ${type} only)` : ` (Wave's defaults are Claude models, for claude adapters only)`;
  return `Map it in \`adapters.${adapterName}.tier_models\`, e.g. \`tier_models: { ${tier}: <model> }\`, or name a model instead of the tier${known}.`;
}

/** A step's model on its adapter: the model and the tier it came from, or the tier nothing maps. */
export type StepModel = { model?: string; tier?: ModelTier } | { unmapped: ModelTier };

/** The model of a step or persona (`chosen`; absent: the adapter's own) on the adapter that runs it, tiers resolved. */
export function modelOn(chosen: string | undefined, adapter: ResolvedAdapter): StepModel {
  if (chosen === undefined) return adapter.model ? { model: adapter.model } : {};
  if (!isModelTier(chosen)) {
    const model = modelForCli(chosen, adapter.type);
    return model ? { model } : {};
  }
  const resolved = resolveTier(chosen, {
    type: adapter.type,
    ...(adapter.tierModels ? { tierModels: adapter.tierModels } : {}),
    ...(adapter.model ? { defaultModel: adapter.model } : {}),
  });
  if (!('model' in resolved)) return { unmapped: chosen };
  const model = modelForCli(resolved.model, adapter.type);
  return { ...(model ? { model } : {}), tier: chosen };
}
