import type { Located } from '../config/load/load.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import type { Pipeline, Step } from '../config/schema/pipeline-schema.js';
import { execOf } from '../config/schema/script-step.js';
import { modelOn, tierHint, type ModelTier, type StepModel } from '../core/models/model-tiers.js';
import type { ResolvedAdapter } from '../core/resolved-adapter.js';
import { WaveError } from '../core/errors/errors.js';

/** The model a prompt step runs with: its own `model`, else its persona's, else the adapter's, tiers resolved on its adapter. */
export function stepModel(step: Step, manifest: Manifest, adapter: ResolvedAdapter): StepModel {
  if ((execOf(step).type ?? 'prompt') === 'command') return {};
  const persona = step.persona ? manifest.personas?.[step.persona] : undefined;
  return modelOn(step.model ?? persona?.model, adapter);
}

/** A tier the step's adapter does not map, at the `model` that names it (the step's, else its persona's), with what to do. */
export function stepModelError(index: number, manifest: Located<Manifest>, pipeline: Located<Pipeline>, adapter: ResolvedAdapter): WaveError | undefined {
  const step = pipeline.value.steps[index]!;
  const resolved = stepModel(step, manifest.value, adapter);
  if (!('unmapped' in resolved)) return undefined;
  const fromStep = step.model !== undefined;
  const who = fromStep ? `step \`${step.id}\`` : `persona \`${step.persona}\` (run by step \`${step.id}\`)`;
  return new WaveError('model_tier_unmapped', `${who} asks for model tier \`${resolved.unmapped}\`, which adapter \`${adapter.name}\` (${adapter.type}) does not map to a model`, {
    location: fromStep ? pipeline.locate(['steps', index, 'model']) : manifest.locate(['personas', step.persona!, 'model']),
    hint: tierHint(resolved.unmapped, adapter.name, adapter.type),
  });
}

/** The model fields of a planned step: the model its CLI gets and the tier it came from (unmapped: none, the plan reports it). */
export function plannedModel(resolved: StepModel): { model?: string; modelTier?: ModelTier } {
  if ('unmapped' in resolved) return {};
  return { ...(resolved.model ? { model: resolved.model } : {}), ...(resolved.tier ? { modelTier: resolved.tier } : {}) };
}
