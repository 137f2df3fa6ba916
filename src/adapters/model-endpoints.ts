import type { ResolvedAdapter } from '../core/resolved-adapter.js';
import type { CliEndpoint } from './agent-cli.js';

/** The model endpoints an adapter's process talks to: its base_url, the base-URL variables it is given, else the CLI's default. */
export function cliEndpoints(adapter: ResolvedAdapter, env: Record<string, string | undefined>, endpoint: CliEndpoint | undefined): string[] {
  const given = [adapter.baseUrl, ...(endpoint?.variables ?? []).map((name) => adapter.env[name] ?? env[name])].filter((url): url is string => !!url);
  if (given.length) return [...new Set(given)];
  return endpoint?.fallback ? [endpoint.fallback] : [];
}
