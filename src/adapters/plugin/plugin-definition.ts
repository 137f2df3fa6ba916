import { definitionProblems, loadPluginModule } from '../../core/adapter-plugin.js';
import type { ResolvedAdapter } from '../../core/resolved-adapter.js';
import type { AdapterDefinition } from './define-adapter.js';

/** A plugin adapter's definition, loaded from its module, or why there is none. */
export type PluginDefinition = { ok: true; definition: AdapterDefinition } | { ok: false; problem: string };

/** The definition a plugin adapter's module exports, checked; the module is loaded once per process. */
export function pluginDefinitionOf(adapter: Pick<ResolvedAdapter, 'name' | 'module'>): PluginDefinition {
  if (adapter.module === undefined) return { ok: false, problem: `adapter \`${adapter.name}\` names no module` };
  const loaded = loadPluginModule(adapter.module);
  if (!loaded.ok) return { ok: false, problem: `plugin module ${adapter.module}: ${loaded.problem}` };
  const problems = definitionProblems(loaded.definition);
  if (problems.length > 0) return { ok: false, problem: `plugin module ${adapter.module}: ${problems.join('; ')}` };
  return { ok: true, definition: loaded.definition as AdapterDefinition };
}
