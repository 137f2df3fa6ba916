import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readJsonObject } from '../json-file.js';
import { GEMINI_GATEWAY_HINT } from '../login/login-hints.js';
import type { LoginStatus } from '../login/login-status.js';
import type { CliEnvInput } from '../types.js';
import { buildGeminiEnv } from './invocation.js';

type Env = Record<string, string | undefined>;

/** The auth type Gemini CLI 0.61 takes from the environment when its settings select none (getAuthTypeFromEnv). */
function authTypeFromEnv(env: Env): string | undefined {
  if (env.GOOGLE_GENAI_USE_GCA === 'true') return 'oauth-personal';
  if (env.GOOGLE_GENAI_USE_VERTEXAI === 'true') return 'vertex-ai';
  if (env.GOOGLE_GEMINI_BASE_URL) return 'gateway';
  if (env.GEMINI_API_KEY) return 'gemini-api-key';
  if (env.CLOUD_SHELL === 'true' || env.GEMINI_CLI_USE_COMPUTE_ADC === 'true') return 'compute-default-credentials';
  return undefined;
}

/** The .env file Gemini CLI loads (findEnvFile): the first `.gemini/.env` or `.env` from the working folder up, else the home's. */
function envFile(start: string, home: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const found = [join(dir, '.gemini', '.env'), join(dir, '.env')].find((path) => existsSync(path));
    if (found) return found;
    if (dirname(dir) === dir) break;
  }
  return [join(home, '.gemini', '.env'), join(home, '.env')].find((path) => existsSync(path));
}

/** The variables of a .env file (KEY=value lines, quotes stripped). */
function readEnvFile(path: string): Env {
  const env: Env = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match) env[match[1]!] = match[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return env;
}

const authOf = (settings: Record<string, unknown>): unknown => {
  const security = settings.security as { auth?: { selectedType?: unknown } } | undefined;
  return security?.auth?.selectedType ?? settings.selectedAuthType;
};

/**
 * Whether Gemini CLI would accept its auth in a step, checked as its headless start does (validateNonInteractiveAuth):
 * the auth type its settings select (an isolated adapter's: API key, written by Wave), else the one the environment
 * implies, then what that type needs: GEMINI_API_KEY, Vertex AI's project or key, or a cached Google login.
 */
export async function geminiLoginStatus(cli: CliEnvInput, projectDir: string): Promise<LoginStatus> {
  const stepEnv = buildGeminiEnv(cli);
  const home = stepEnv.GEMINI_CLI_HOME ?? stepEnv.HOME ?? '';
  const settingsFile = join(home, '.gemini', 'settings.json');
  const dotenv = envFile(projectDir, home);
  // Variables already set win over the .env file's, as in Gemini CLI.
  const env: Env = { ...(dotenv ? readEnvFile(dotenv) : {}), ...stepEnv };
  const selected = cli.adapter.isolated ? 'gemini-api-key' : authOf(await readJsonObject(settingsFile));
  const type = typeof selected === 'string' ? selected : authTypeFromEnv(env);
  const keyFrom = (name: string) => (stepEnv[name] ? name : `${name} in ${dotenv}`);
  switch (type) {
    case undefined:
      return {
        state: 'missing',
        detail: `no auth method: ${settingsFile} selects none, and none of GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA reaches the step`,
      };
    case 'gateway':
      return {
        state: 'missing',
        detail: `with a base URL and no auth type in ${settingsFile}, Gemini CLI picks "gateway", which it refuses ("Invalid auth method selected.")`,
        hint: GEMINI_GATEWAY_HINT,
      };
    case 'gemini-api-key':
      return env.GEMINI_API_KEY
        ? { state: 'ok', detail: `API key from ${keyFrom('GEMINI_API_KEY')}` }
        : { state: 'missing', detail: 'API-key auth, but GEMINI_API_KEY does not reach the step' };
    case 'vertex-ai':
      return (env.GOOGLE_CLOUD_PROJECT && env.GOOGLE_CLOUD_LOCATION) || env.GOOGLE_API_KEY
        ? { state: 'ok', detail: 'Vertex AI' }
        : { state: 'missing', detail: 'Vertex AI needs GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION, or GOOGLE_API_KEY' };
    case 'oauth-personal': {
      const cached = join(home, '.gemini', 'oauth_creds.json');
      return existsSync(cached)
        ? { state: 'ok', detail: `signed in with Google (${cached})` }
        : { state: 'missing', detail: `Google sign-in selected, but there is no cached login in ${cached}` };
    }
    default:
      return { state: 'ok', detail: `auth type ${type}` };
  }
}
