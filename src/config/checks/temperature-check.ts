import { WaveError } from '../../core/errors/errors.js';
import { AGENT_CLI_MODELS, type AgentCliModels } from '../../core/models/agent-cli-models.js';
import { AGENT_CLI_TYPES, type AdapterType } from '../../core/resolved-adapter.js';
import { adapterTypeOf } from '../schema/adapter-type.js';
import type { Locator } from '../load/locator.js';
import { isRecord } from '../load/value-path.js';

/** Why an adapter type cannot take a persona's temperature; absent for the types that pass it on. */
function noTemperature(type: AdapterType, adapter: Record<string, unknown>): string | undefined {
  // A plugin's prepare gets the persona's temperature and is the one to use or ignore it.
  if (type === 'llm' || type === 'plugin') return undefined;
  if (type === 'process') return 'a process adapter has no model to give a temperature to';
  if (type === 'browser') return 'a browser adapter runs a list of browser actions, no model';
  const takes = AGENT_CLI_MODELS[type].temperature;
  switch (takes) {
    case 'always':
      return undefined;
    case 'isolated':
      return adapter.isolated === true ? undefined : `${type} takes a temperature only in the settings.json Wave writes with \`isolated: true\``;
    case 'never':
      return `${type} takes no temperature (its CLI has neither a flag nor a setting for one)`;
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

/** Personas whose temperature their adapter would drop: refused by name, never silently ignored. */
export function temperatureErrors(root: unknown, locator: Locator): WaveError[] {
  if (!isRecord(root) || !isRecord(root.personas) || !isRecord(root.adapters)) return [];
  const adapters = root.adapters;
  return Object.entries(root.personas).flatMap(([name, persona]) => {
    if (!isRecord(persona) || typeof persona.temperature !== 'number' || typeof persona.adapter !== 'string') return [];
    const adapter = adapters[persona.adapter];
    if (!isRecord(adapter)) return [];
    const why = noTemperature(adapterTypeOf(persona.adapter, adapter), adapter);
    if (!why) return [];
    return [
      new WaveError('not_supported', `persona \`${name}\` sets a temperature, but its adapter \`${persona.adapter}\` cannot use it: ${why}`, {
        location: locator.locateKey(['personas', name, 'temperature']),
        hint: temperatureHint(),
      }),
    ];
  });
}
