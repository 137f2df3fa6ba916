import type { ResolvedAdapter } from '../../core/resolved-adapter.js';

/** The variables an adapter's API key is read from, in the order they are looked for: its api_key_env, then its CLI's own. */
export function keyVariablesOf(adapter: Pick<ResolvedAdapter, 'apiKeyEnv'>, cliKeyVariables: readonly string[]): string[] {
  return [...(adapter.apiKeyEnv ? [adapter.apiKeyEnv] : []), ...cliKeyVariables];
}

/** Whether one of the adapter's key variables is set, not empty, in `env` (a step's environment). */
export function keyReaches(adapter: Pick<ResolvedAdapter, 'apiKeyEnv'>, cliKeyVariables: readonly string[], env: Record<string, string | undefined>): boolean {
  return keyVariablesOf(adapter, cliKeyVariables).some((name) => (env[name] ?? '') !== '');
}
