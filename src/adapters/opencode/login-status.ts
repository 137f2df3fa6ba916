import { join } from 'node:path';
import { readJsonObject } from '../json-file.js';
import { baseUrlLogin } from '../login/base-url-login.js';
import type { LoginStatus } from '../login/login-status.js';
import type { CliEnvInput } from '../types.js';
import { buildOpenCodeEnv } from './invocation.js';

/**
 * Whether OpenCode has a provider's credentials in a step: with a base_url, Wave's own provider (its key from
 * api_key_env, none when unnamed); else the logins in its auth.json (`opencode auth login`), or a provider's
 * `*_API_KEY` variable. Without any, OpenCode still runs, on its free OpenCode Zen models only: a warning, not a failure.
 */
export async function openCodeLoginStatus(cli: CliEnvInput): Promise<LoginStatus> {
  const env = buildOpenCodeEnv(cli);
  const viaBaseUrl = baseUrlLogin(cli, env);
  if (viaBaseUrl) return viaBaseUrl;
  const authFile = join(env.XDG_DATA_HOME ?? join(env.HOME ?? '', '.local', 'share'), 'opencode', 'auth.json');
  const providers = Object.keys(await readJsonObject(authFile));
  if (providers.length > 0) return { state: 'ok', detail: `logged in to ${providers.join(', ')} (${authFile})` };
  const keys = Object.keys(env).filter((variable) => variable.endsWith('_API_KEY') && env[variable] !== '');
  if (keys.length > 0) return { state: 'ok', detail: `provider keys from ${keys.join(', ')}` };
  return {
    state: 'ok',
    detail: `no provider credentials (${authFile} holds none, and no *_API_KEY variable reaches the step)`,
    warning: "OpenCode will use only its free OpenCode Zen models; log in with `opencode auth login` for your provider's models.",
  };
}
