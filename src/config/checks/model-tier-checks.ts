import { WaveError } from '../../core/errors/errors.js';
import { isModelTier, MODEL_TIERS, resolveTier, tierHint, type ModelTier } from '../../core/models/model-tiers.js';
import { adapterTypeOf } from '../schema/adapter-type.js';
import type { Locator } from '../load/locator.js';
import { isRecord, type Path } from '../load/value-path.js';

/** The adapter's tier_models as strings by tier, ignoring what the schema check reports. */
function tierModelsOf(adapter: Record<string, unknown>): Record<string, string> {
  const tiers = isRecord(adapter.tier_models) ? adapter.tier_models : {};
  return Object.fromEntries(Object.entries(tiers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** An adapter of the manifest: its name and its mapping as written. */
interface AdapterEntry {
  name: string;
  adapter: Record<string, unknown>;
}

/** An unmapped tier at `path`, asked by `who` on the adapter. */
function unmapped(tier: ModelTier, who: string, { name, adapter }: AdapterEntry, path: Path, locator: Locator): WaveError {
  const type = adapterTypeOf(name, adapter);
  return new WaveError('model_tier_unmapped', `${who} asks for model tier \`${tier}\`, which adapter \`${name}\` (${type}) does not map to a model`, {
    location: locator.locate(path),
    hint: tierHint(tier, name, type),
  });
}

/**
 * Model tiers in a manifest that would reach a CLI as model names: a persona's or an adapter's `model` tier its
 * adapter does not map, and a `tier_models` entry that names a tier instead of a model.
 */
export function modelTierErrors(root: unknown, locator: Locator): WaveError[] {
  if (!isRecord(root) || !isRecord(root.adapters)) return [];
  const adapters = root.adapters;
  const errors: WaveError[] = [];
  const maps = (tier: ModelTier, name: string, adapter: Record<string, unknown>) =>
    'model' in resolveTier(tier, { type: adapterTypeOf(name, adapter), tierModels: tierModelsOf(adapter) });
  for (const [name, adapter] of Object.entries(adapters)) {
    if (!isRecord(adapter)) continue;
    for (const [tier, model] of Object.entries(tierModelsOf(adapter))) {
      if (!isModelTier(model)) continue;
      errors.push(
        new WaveError('wrong_type', `\`adapters.${name}.tier_models.${tier}\` names tier \`${model}\`, not a model`, {
          location: locator.locate(['adapters', name, 'tier_models', tier]),
          hint: `Give the model ${tier} stands for on this adapter (a tier maps to a model; ${MODEL_TIERS.join(', ')} are not models).`,
        }),
      );
    }
    for (const key of ['model', 'default_model']) {
      const model = adapter[key];
      if (isModelTier(model) && !maps(model, name, adapter)) errors.push(unmapped(model, `adapter \`${name}\``, { name, adapter }, ['adapters', name, key], locator));
    }
  }
  if (!isRecord(root.personas)) return errors;
  for (const [name, persona] of Object.entries(root.personas)) {
    if (!isRecord(persona) || !isModelTier(persona.model) || typeof persona.adapter !== 'string') continue;
    const adapter = adapters[persona.adapter];
    if (isRecord(adapter) && !maps(persona.model, persona.adapter, adapter))
      errors.push(unmapped(persona.model, `persona \`${name}\``, { name: persona.adapter, adapter }, ['personas', name, 'model'], locator));
  }
  return errors;
}
