import { resolve } from 'node:path';
import { definitionProblems, loadPluginModule } from '../../core/adapter-plugin.js';
import { WaveError } from '../../core/errors/errors.js';
import { AGENT_CLI_MODELS, type AgentCliModels } from '../../core/models/agent-cli-models.js';
import { AGENT_CLI_TYPES, type AdapterType } from '../../core/resolved-adapter.js';
import { adapterTypeOf } from '../schema/adapter-type.js';
import type { Locator } from '../load/locator.js';
import { isRecord } from '../load/value-path.js';

/** Where a plugin's CLI takes a temperature, as its definition's `models.temperature` says (never, by default); absent when the module does not load (its own error says why). */
function pluginTemperature(adapter: Record<string, unknown>, manifestDir: string): { cli: string; takes: AgentCliModels['temperature'] } | undefined {
  if (typeof adapter.module !== 'string') return undefined;
  const loaded = loadPluginModule(resolve(manifestDir, adapter.module));
  if (!loaded.ok || definitionProblems(loaded.definition).length > 0) return undefined;
  const definition = loaded.definition as { name: string; models?: Partial<AgentCliModels> };
  return { cli: definition.name, takes: definition.models?.temperature ?? 'never' };
}

/** Why an adapter cannot take a persona's temperature; absent for those that pass it on. */
function noTemperature(type: AdapterType, adapter: Record<string, unknown>, manifestDir: string): string | undefined {
  if (type === 'llm') return undefined;
  if (type === 'process') return 'a process adapter has no model to give a temperature to';
  if (type === 'browser') return 'a browser adapter runs a list of browser actions, no model';
  const support = type === 'plugin' ? pluginTemperature(adapter, manifestDir) : { cli: type, takes: AGENT_CLI_MODELS[type].temperature };
  if (!support) return undefined;
  const { cli, takes } = support;
  const never = type === 'plugin' ? "its definition's models.temperature is 'never', the default" : 'its CLI has neither a flag nor a setting for one';
  switch (takes) {
    case 'always':
      return undefined;
    case 'isolated':
      return adapter.isolated === true ? undefined : `${cli} takes a temperature only in the settings Wave writes with \`isolated: true\``;
    case 'never':
      return `${cli} takes no temperature (${never})`;
    default:
      return takes satisfies never;
  }
}

/** The CLI types whose temperature support is `takes`. */
const takingTemperature = (takes: AgentCliModels['temperature']): string[] => AGENT_CLI_TYPES.filter((type) => AGENT_CLI_MODELS[type].temperature === takes);

/** `a`, `a or b`, `a, b or c`. */
const eitherOf = (names: readonly string[]): string => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`);

/** Where a temperature can go: the llm runner and the CLIs that take one, as the refusal's hint says. */
function temperatureHint(): string {
  const isolated = takingTemperature('isolated');
  const withIsolated = isolated.length > 0 ? ` (or ${eitherOf(isolated)} with isolated: true)` : '';
  return `Remove the temperature, or run the persona on an ${eitherOf(['llm', ...takingTemperature('always')])} adapter${withIsolated}.`;
}

/** The refusal's hint for a plugin: its author says where the CLI takes a temperature. */
const PLUGIN_TEMPERATURE_HINT = "Remove the temperature, or set `models: { temperature: 'always' }` in the plugin's defineAdapter({...}) and pass it on in its prepare.";

/** Personas whose temperature their adapter would drop: refused by name, never silently ignored. */
export function temperatureErrors(root: unknown, manifestDir: string, locator: Locator): WaveError[] {
  if (!isRecord(root) || !isRecord(root.personas) || !isRecord(root.adapters)) return [];
  const adapters = root.adapters;
  return Object.entries(root.personas).flatMap(([name, persona]) => {
    if (!isRecord(persona) || typeof persona.temperature !== 'number' || typeof persona.adapter !== 'string') return [];
    const adapter = adapters[persona.adapter];
    if (!isRecord(adapter)) return [];
    const type = adapterTypeOf(persona.adapter, adapter);
    const why = noTemperature(type, adapter, manifestDir);
    if (!why) return [];
    return [
      new WaveError('not_supported', `persona \`${name}\` sets a temperature, but its adapter \`${persona.adapter}\` cannot use it: ${why}`, {
        location: locator.locateKey(['personas', name, 'temperature']),
        hint: type === 'plugin' ? PLUGIN_TEMPERATURE_HINT : temperatureHint(),
      }),
    ];
  });
}
