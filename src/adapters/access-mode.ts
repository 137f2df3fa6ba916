import { existsSync } from 'node:fs';
import type { AdapterType, ResolvedAdapter } from '../core/resolved-adapter.js';
import { AGENT_CLIS, agentCliOf, agentCliOfAdapter } from './agent-clis.js';
import { cliEndpoints } from './model-endpoints.js';
import { keyVariablesOf } from './login/key-variables.js';

/** How an adapter reaches its model: a local/explicit base URL, an API key, or the user's own CLI login. */
export interface AccessMode {
  mode: 'local' | 'api_key' | 'subscription' | 'none' | 'not_needed';
  /** What was found: the base URL, the key's variable name, or the login file. */
  detail: string;
}

/** The API key variables each CLI reads on its own. */
export const KEY_VARIABLES: Readonly<Partial<Record<AdapterType, readonly string[]>>> = Object.fromEntries(AGENT_CLIS.map((cli) => [cli.type, cli.keyVariables]));

/**
 * The access mode an adapter would use, in the adapter spec's priority: a base URL from the manifest, then an API
 * key (the adapter's api_key_env or the CLI's own variable), then the user's subscription login. An isolated adapter
 * cannot use the login, which lives in the user's config home.
 */
export function detectAccessMode(adapter: ResolvedAdapter, env: Record<string, string | undefined>, passthrough: readonly string[]): AccessMode {
  if (adapter.type === 'process' || adapter.type === 'browser') return { mode: 'not_needed', detail: 'no model' };
  if (adapter.baseUrl) return { mode: 'local', detail: adapter.baseUrl };
  const keys = adapterKeyVariables(adapter);
  // A step sees a parent variable only through env_passthrough; the adapter's own env always reaches it.
  const reaches = (name: string) => (adapter.env[name] ?? '') !== '' || (passthrough.includes(name) && (env[name] ?? '') !== '');
  const key = keys.find(reaches);
  if (key) return { mode: 'api_key', detail: key };
  const unpassed = keys.find((name) => (env[name] ?? '') !== '');
  if (!adapter.isolated) {
    const login = cliLoginFile(adapter, env);
    if (login) return { mode: 'subscription', detail: login };
  }
  if (unpassed) return { mode: 'none', detail: `${unpassed} is set but not listed in runtime.sandbox.env_passthrough` };
  const wanted = keys.length > 0 ? `set ${keys.join(' or ')} (and list it in runtime.sandbox.env_passthrough)` : 'set base_url';
  return { mode: 'none', detail: `${wanted}${adapter.isolated ? '' : ', or log in with the CLI'}` };
}

/** The variables an adapter's API key is read from, in the order they are looked for: its api_key_env, then its CLI's own. */
export function adapterKeyVariables(adapter: ResolvedAdapter): string[] {
  return keyVariablesOf(adapter, adapter.type === 'plugin' ? (agentCliOfAdapter(adapter)?.keyVariables ?? []) : (KEY_VARIABLES[adapter.type] ?? []));
}

/** The login file of the user's own CLI login the adapter's CLI would find (its env over `env`), if there is one. */
export function cliLoginFile(adapter: ResolvedAdapter, env: Record<string, string | undefined>): string | undefined {
  return (agentCliOfAdapter(adapter)?.login.files({ ...env, ...adapter.env }) ?? []).find((file) => existsSync(file));
}

/** The base-URL variables an agent CLI reads (ANTHROPIC_BASE_URL …): not secrets, so a step gets them from Wave's environment unasked. */
export function endpointVariables(type: AdapterType): readonly string[] {
  return agentCliOf(type)?.endpoint.variables ?? [];
}

/** The model endpoints an adapter's process talks to: its base_url, the base-URL variables it is given, else the CLI's default. */
export function modelEndpoints(adapter: ResolvedAdapter, env: Record<string, string | undefined>): string[] {
  return cliEndpoints(adapter, env, agentCliOfAdapter(adapter)?.endpoint);
}
