import { parseTokenScope } from '../core/forge/token-scope.js';
import { WaveError, WaveErrors } from '../core/errors/errors.js';
import type { Plan } from '../plan/plan-types.js';
import type { PlannedTokenScope } from '../plan/plan-token-scopes.js';
import { forgeScopesFor, isScopedForge, missingScopes, tokenVariables, uncheckableForge, type ScopedForge } from './forge-scopes.js';
import { askTokenScopes, forgeApiBase, type TokenScopesAnswer } from './token-introspect.js';

/** Scopes of one persona that could not be checked, and why (a warning: the run goes on, as in Wave). */
export interface UncheckedScopes {
  persona: string;
  scopes: string[];
  reason: string;
}

const FORGE_NAME: Record<ScopedForge, string> = { github: 'GitHub', gitlab: 'GitLab' };

/**
 * Checks, before a run, that the forge token grants what the token_scopes of the personas its steps run as require
 * (Wave's scope.Validator). A missing scope, or a token that would not reach the persona's steps, throws
 * token_scope_missing naming persona, scope and how to grant it; what cannot be checked (no token set, a forge or a
 * token that does not tell its scopes, the API out of reach) is returned, one entry per persona and reason.
 */
export async function checkTokenScopes(plan: Pick<Plan, 'forge' | 'runtime'>, env: NodeJS.ProcessEnv): Promise<UncheckedScopes[]> {
  const entries = plan.forge.scopes;
  if (entries.length === 0) return [];
  const { info, override } = plan.forge;
  const host = info.host || undefined;
  const from = override ? `metadata.forge: ${override}` : info.remote ? `the git remote on ${info.host}` : 'no git remote';
  const unchecked: Array<{ entry: PlannedTokenScope; reason: string }> = [];
  const violations: WaveError[] = [];
  const forge = info.type;
  if (!isScopedForge(forge)) {
    const reason = uncheckableForge(forge, from);
    return group(entries.map((entry) => ({ entry, reason })));
  }
  const answers = new Map<string, Promise<TokenScopesAnswer>>();
  for (const entry of entries) {
    const scope = parseTokenScope(entry.scope)!;
    const candidates = scope.envVar ? [scope.envVar] : tokenVariables(forge);
    const variable = candidates.find((name) => env[name]);
    if (!variable) {
      unchecked.push({ entry, reason: `${candidates.join(' and ')} ${candidates.length > 1 ? 'are' : 'is'} not set` });
      continue;
    }
    // A step here sees only the variables env_passthrough names (and its persona's env): a token left out never reaches it.
    if (!plan.runtime.envPassthrough.includes(variable) && !entry.personaEnv.includes(variable)) {
      violations.push(unreachableToken(entry, variable));
      continue;
    }
    let answer = answers.get(variable);
    if (!answer) {
      answer = askTokenScopes(forge, forgeApiBase(forge, host, env), env[variable]!, plan.forge.apiTimeoutMs);
      answers.set(variable, answer);
    }
    const told = await answer;
    if ('unknown' in told) {
      unchecked.push({ entry, reason: `${variable}: ${told.unknown}` });
      continue;
    }
    const needed = forgeScopesFor(scope, forge);
    const missing = missingScopes(needed, told.scopes, forge);
    if (missing.length) violations.push(missingScope(entry, { forge, host, variable }, missing, told.scopes));
  }
  if (violations.length === 1) throw violations[0]!;
  if (violations.length > 1) throw new WaveErrors(violations);
  return group(unchecked);
}

/** One notice per persona and reason, its scopes together. */
function group(items: ReadonlyArray<{ entry: PlannedTokenScope; reason: string }>): UncheckedScopes[] {
  const byKey = new Map<string, UncheckedScopes>();
  for (const { entry, reason } of items) {
    const key = `${entry.persona}\n${reason}`;
    const notice = byKey.get(key) ?? { persona: entry.persona, scopes: [], reason };
    notice.scopes.push(entry.scope);
    byKey.set(key, notice);
  }
  return [...byKey.values()];
}

function unreachableToken(entry: PlannedTokenScope, variable: string): WaveError {
  return new WaveError(
    'token_scope_missing',
    `persona \`${entry.persona}\` needs the token in ${variable} (for \`${entry.scope}\`), but its steps would not get it: they see only the variables runtime.sandbox.env_passthrough names`,
    { location: entry.location, hint: `Add ${variable} to runtime.sandbox.env_passthrough in the manifest (or set it in the persona's env).` },
  );
}

/** The token a scope was checked on: the forge that issued it, its host (none for the default) and the variable holding it. */
interface CheckedToken {
  forge: ScopedForge;
  host: string | undefined;
  variable: string;
}

function missingScope(entry: PlannedTokenScope, token: CheckedToken, missing: string[], granted: string[]): WaveError {
  const list = (scopes: string[]) => scopes.map((s) => `\`${s}\``).join(', ');
  const has = granted.length ? `has only ${list(granted)}` : 'has no scopes';
  return new WaveError(
    'token_scope_missing',
    `persona \`${entry.persona}\` needs token scope \`${entry.scope}\`, which ${FORGE_NAME[token.forge]} grants as ${list(missing)}; the token in ${token.variable} ${has}`,
    { location: entry.location, hint: grantHint(token, missing) },
  );
}

/** How to give a token the scopes it lacks, on each forge. */
function grantHint({ forge: type, host, variable }: CheckedToken, missing: string[]): string {
  const scopes = missing.join(',');
  if (type === 'github') {
    const site = host && host !== 'github.com' ? `https://${host}` : 'https://github.com';
    return `Grant ${scopes} to the token: \`gh auth refresh --scopes ${scopes}\` for a gh login, or a classic personal access token with ${scopes} from ${site}/settings/tokens; then put it in ${variable}.`;
  }
  return `Create a personal access token with the ${scopes} scope at https://${host ?? 'gitlab.com'}/-/user_settings/personal_access_tokens and put it in ${variable}.`;
}
