import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AdapterType } from '../core/resolved-adapter.js';
import type { ResolvedAdapter } from '../core/resolved-adapter.js';

/** How an adapter reaches its model: a local/explicit base URL, an API key, or the user's own CLI login. */
export interface AccessMode {
  mode: 'local' | 'api_key' | 'subscription' | 'none' | 'not_needed';
  /** What was found: the base URL, the key's variable name, or the login file. */
  detail: string;
}

/** The API key variables each CLI reads on its own. */
export const KEY_VARIABLES: Partial<Record<AdapterType, string[]>> = {
  claude: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'],
  opencode: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'],
  codex: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  cursor: ['CURSOR_API_KEY'],
};

/** The login files each CLI keeps under the user's home (or its own config home variable). */
function loginFiles(type: AdapterType, env: Record<string, string | undefined>): string[] {
  const home = env.HOME ?? '';
  switch (type) {
    case 'claude': {
      const dir = env.CLAUDE_CONFIG_DIR ?? join(home, '.claude');
      return [join(dir, '.credentials.json')];
    }
    case 'opencode':
      return [join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'opencode', 'auth.json')];
    case 'codex':
      return [join(env.CODEX_HOME ?? join(home, '.codex'), 'auth.json')];
    case 'gemini':
      return [join(env.GEMINI_CLI_HOME ?? home, '.gemini', 'oauth_creds.json')];
    default:
      return [];
  }
}

/**
 * The access mode an adapter would use, in the adapter spec's priority: a base URL from the manifest, then an API
 * key (the adapter's api_key_env or the CLI's own variable), then the user's subscription login. An isolated adapter
 * cannot use the login, which lives in the user's config home.
 */
export function detectAccessMode(adapter: ResolvedAdapter, env: Record<string, string | undefined>, passthrough: readonly string[]): AccessMode {
  if (adapter.type === 'process') return { mode: 'not_needed', detail: 'no model' };
  if (adapter.baseUrl) return { mode: 'local', detail: adapter.baseUrl };
  const merged = { ...env, ...adapter.env };
  const keys = [...(adapter.apiKeyEnv ? [adapter.apiKeyEnv] : []), ...(KEY_VARIABLES[adapter.type] ?? [])];
  // A step sees a parent variable only through env_passthrough; the adapter's own env always reaches it.
  const reaches = (name: string) => (adapter.env[name] ?? '') !== '' || (passthrough.includes(name) && (env[name] ?? '') !== '');
  const key = keys.find(reaches);
  if (key) return { mode: 'api_key', detail: key };
  const unpassed = keys.find((name) => (env[name] ?? '') !== '');
  if (!adapter.isolated) {
    const login = loginFiles(adapter.type, merged).find((file) => existsSync(file));
    if (login) return { mode: 'subscription', detail: login };
  }
  if (unpassed) return { mode: 'none', detail: `${unpassed} is set but not listed in runtime.sandbox.env_passthrough` };
  const wanted = keys.length > 0 ? `set ${keys.join(' or ')} (and list it in runtime.sandbox.env_passthrough)` : 'set base_url';
  return { mode: 'none', detail: `${wanted}${adapter.isolated ? '' : ', or log in with the CLI'}` };
}

/** The variables through which each CLI takes a model base URL, and where it goes when none is set. */
const MODEL_ENDPOINTS: Partial<Record<AdapterType, { variables: string[]; fallback?: string }>> = {
  claude: { variables: ['ANTHROPIC_BASE_URL'], fallback: 'https://api.anthropic.com' },
  codex: { variables: ['OPENAI_BASE_URL'], fallback: 'https://api.openai.com/v1' },
  gemini: { variables: ['GOOGLE_GEMINI_BASE_URL'], fallback: 'https://generativelanguage.googleapis.com' },
  opencode: { variables: [] },
  // cursor-agent has no base-URL option: it always talks to Cursor's own API.
  cursor: { variables: [], fallback: 'https://api2.cursor.sh' },
};

/** The model endpoints an adapter's process talks to: its base_url, the base-URL variables it is given, else the CLI's default. */
export function modelEndpoints(adapter: ResolvedAdapter, env: Record<string, string | undefined>): string[] {
  const known = MODEL_ENDPOINTS[adapter.type];
  const given = [adapter.baseUrl, ...(known?.variables ?? []).map((name) => adapter.env[name] ?? env[name])].filter((url): url is string => !!url);
  if (given.length) return [...new Set(given)];
  return known?.fallback ? [known.fallback] : [];
}
