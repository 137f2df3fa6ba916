import { agentCliOfAdapter, defaultBinaryOf } from '../../adapters/agent-clis.js';
import type { Located } from '../../config/load/located.js';
import type { Manifest } from '../../config/schema/manifest-schema.js';
import { adapterTypeOf } from '../../config/schema/adapter-type.js';
import { adapterModel } from '../../plan/resolve-model.js';

/** One persona as `wave list personas` shows it. */
export interface PersonaListing {
  name: string;
  adapter: string;
  /** The persona's model (or tier), else its adapter's; null when both leave it to the CLI. */
  model: string | null;
  description?: string;
}

/** One adapter as `wave list adapters` shows it. */
export interface AdapterListing {
  name: string;
  type: string;
  /** The program it starts (the CLI's own, or a plugin's, when the manifest names none); null for an HTTP model. */
  binary: string | null;
  model: string | null;
}

/** The manifest's personas, by name. */
export function listPersonas(manifest: Located<Manifest>): PersonaListing[] {
  const { personas = {}, adapters = {} } = manifest.value;
  return Object.entries(personas)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, persona]) => {
      const adapter = adapters[persona.adapter];
      const model = persona.model ?? (adapter ? adapterModel(adapterTypeOf(persona.adapter, adapter), adapter) : undefined);
      return { name, adapter: persona.adapter, model: model ?? null, ...(persona.description ? { description: persona.description } : {}) };
    });
}

/** The manifest's adapters, by name. */
export function listAdapters(manifest: Located<Manifest>): AdapterListing[] {
  return Object.entries(manifest.value.adapters ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, adapter]) => {
      const type = adapterTypeOf(name, adapter);
      // A plugin's default binary is its definition's (the module path is absolute once loaded); none when it does not load.
      const plugin = type === 'plugin' ? (agentCliOfAdapter({ name, type, module: adapter.module })?.binary ?? null) : undefined;
      const binary = type === 'llm' ? null : (adapter.binary ?? (plugin === undefined ? defaultBinaryOf(type) : plugin));
      return { name, type, binary, model: adapterModel(type, adapter) ?? null };
    });
}
