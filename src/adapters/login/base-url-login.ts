import type { LoginStatus } from './login-status.js';
import type { CliEnvInput } from '../types.js';

/**
 * The login status of a CLI that Wave points at a base_url through a provider of its own (Codex, OpenCode): the key
 * comes from api_key_env, which must reach the step, or none is sent. Undefined when the adapter has no base_url.
 */
export function baseUrlLogin(cli: CliEnvInput, env: Record<string, string>): LoginStatus | undefined {
  const { baseUrl, apiKeyEnv, name } = cli.adapter;
  if (!baseUrl) return undefined;
  if (!apiKeyEnv) return { state: 'ok', detail: `base_url ${baseUrl}, no key sent` };
  if (env[apiKeyEnv]) return { state: 'ok', detail: `base_url ${baseUrl}, key from ${apiKeyEnv}` };
  return {
    state: 'missing',
    detail: `api_key_env names ${apiKeyEnv}, which does not reach the step`,
    hint: `Set ${apiKeyEnv} and list it in runtime.sandbox.env_passthrough, or remove adapters.${name}.api_key_env for a server without keys.`,
  };
}
