import { fetchFailureCause } from '../core/http-status.js';
import type { ScopedForge } from './forge-scopes.js';

/** What a forge said about a token: its scopes, or why it said none. */
export type TokenScopesAnswer = { scopes: string[] } | { unknown: string };

/**
 * The forge's API root. GITHUB_API_URL (set by GitHub Actions, also on GitHub Enterprise) and CI_API_V4_URL (set by
 * GitLab CI) win, so a run inside either CI asks its own server, and a test a local fake.
 */
export function forgeApiBase(forge: ScopedForge, host: string | undefined, env: NodeJS.ProcessEnv): string {
  const fromEnv = forge === 'github' ? env.GITHUB_API_URL : env.CI_API_V4_URL;
  if (fromEnv) return fromEnv.replace(/\/+$/, '');
  if (forge === 'github') return !host || host === 'github.com' ? 'https://api.github.com' : `https://${host}/api/v3`;
  return `https://${host ?? 'gitlab.com'}/api/v4`;
}

/**
 * Asks the forge which scopes `token` has (Wave's internal/scope/introspect.go, over HTTP instead of gh/glab): GitHub
 * lists a classic token's scopes in the X-OAuth-Scopes header of GET /user (a fine-grained or app token sends none);
 * GitLab answers GET /personal_access_tokens/self with them. Never throws.
 */
export async function askTokenScopes(forge: ScopedForge, apiBase: string, token: string, timeoutMs: number): Promise<TokenScopesAnswer> {
  const url = forge === 'github' ? `${apiBase}/user` : `${apiBase}/personal_access_tokens/self`;
  const headers: Record<string, string> =
    forge === 'github'
      ? { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'user-agent': 'wave-token-scope-check' }
      : { 'private-token': token, accept: 'application/json' };
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const why = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000}s` : fetchFailureCause(error);
    return { unknown: `GET ${url} failed: ${why}` };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { unknown: `GET ${url} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}` };
  }
  if (forge === 'github') {
    await response.body?.cancel();
    const header = response.headers.get('x-oauth-scopes');
    if (header === null) return { unknown: 'the token is not a classic personal access token (GitHub lists no scopes for fine-grained and app tokens)' };
    return { scopes: splitScopes(header) };
  }
  try {
    const body = (await response.json()) as { scopes?: unknown };
    if (Array.isArray(body.scopes)) return { scopes: body.scopes.filter((s): s is string => typeof s === 'string') };
  } catch {
    // Falls through: an answer without a list of scopes.
  }
  return { unknown: `GET ${url} answered without a list of scopes` };
}

function splitScopes(header: string): string[] {
  return header
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
