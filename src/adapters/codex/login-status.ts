import { baseUrlLogin } from '../login/base-url-login.js';
import type { LoginStatus } from '../login/login-status.js';
import type { CliEnvInput } from '../types.js';
import { buildCodexEnv } from './invocation.js';

/** How long `codex login status` may take. */
const STATUS_TIMEOUT_MS = 20_000;

/** The variable `codex exec` takes an API key from (OPENAI_API_KEY is read only by `codex login --with-api-key`). */
const EXEC_KEY = 'CODEX_API_KEY';

/**
 * Whether Codex has credentials in a step's environment: with a base_url, Wave's own provider takes its key from
 * api_key_env (a placeholder when none is named); else CODEX_API_KEY, else Codex's own `codex login status` (its
 * auth.json or keyring in CODEX_HOME).
 */
export async function codexLoginStatus(cli: CliEnvInput, binaryPath: string): Promise<LoginStatus> {
  const env = buildCodexEnv(cli);
  const viaBaseUrl = baseUrlLogin(cli, env);
  if (viaBaseUrl) return viaBaseUrl;
  if (env[EXEC_KEY]) return { state: 'ok', detail: `API key from ${EXEC_KEY}` };
  if (cli.adapter.isolated) return { state: 'missing', detail: `no API key in ${EXEC_KEY}` };
  const { execa } = await import('execa');
  const result = await execa(binaryPath, ['login', 'status'], { env, extendEnv: false, reject: false, stdin: 'ignore', timeout: STATUS_TIMEOUT_MS });
  // Codex may print warnings around its answer ("Not logged in", "Logged in using ChatGPT", "API key configured - ***").
  const said = `${String(result.stdout)}\n${String(result.stderr)}`
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('WARNING'));
  const answer = said[0] ?? `exit ${result.exitCode ?? result.signal}`;
  return result.exitCode === 0 ? { state: 'ok', detail: `\`codex login status\`: ${answer}` } : { state: 'missing', detail: `\`codex login status\`: ${answer}` };
}
