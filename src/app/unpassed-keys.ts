import { adapterKeyVariables, cliLoginFile } from '../adapters/access-mode.js';
import { agentCliOfAdapter } from '../adapters/agent-clis.js';
import { planAdapters } from '../plan/plan-adapters.js';
import type { Plan } from '../plan/plan-types.js';

/**
 * Warnings for the API key variables the plan's agent CLIs read that are set in Wave's environment but reach no step
 * (not in runtime.sandbox.env_passthrough, not in the adapter's env): the first run would fail `auth_failed` with the
 * fix hidden in its logs. An adapter with a base_url (a local server) is left alone.
 */
export function unpassedKeyWarnings(plan: Plan, env: NodeJS.ProcessEnv): string[] {
  const passed = new Set(plan.runtime.envPassthrough);
  const warnings = new Map<string, string>();
  for (const adapter of planAdapters(plan)) {
    if (!agentCliOfAdapter(adapter) || adapter.baseUrl) continue;
    for (const name of adapterKeyVariables(adapter)) {
      if (!env[name] || passed.has(name) || adapter.env[name] !== undefined || warnings.has(name)) continue;
      const login = adapter.isolated ? undefined : cliLoginFile(adapter, env);
      const instead = login ? `; they use your ${adapter.type} login (${login}) instead` : '';
      warnings.set(name, `warning: ${name} is set here but steps on adapter \`${adapter.name}\` will not see it${instead}: list it in runtime.sandbox.env_passthrough to use it\n`);
    }
  }
  return [...warnings.values()];
}
