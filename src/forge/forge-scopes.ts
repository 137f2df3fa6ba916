import type { TokenScope } from '../core/forge/token-scope.js';
import type { ForgeType } from '../core/forge/forge.js';

/** The forges whose tokens can be asked for their scopes here (Wave's GitHub and GitLab introspectors). */
export type ScopedForge = 'github' | 'gitlab';

const write = (scope: TokenScope) => scope.permission !== 'read';

/**
 * The forge's own scopes a persona's abstract scope needs (Wave's internal/scope/resolver.go): GitHub's classic
 * scopes are coarse (`repo` covers issues, pulls, contents and actions); an unknown resource passes through as written.
 */
export function forgeScopesFor(scope: TokenScope, forge: ScopedForge): string[] {
  const { resource, permission } = scope;
  if (forge === 'github') {
    if (['issues', 'pulls', 'repos', 'actions'].includes(resource)) return ['repo'];
    if (resource === 'packages') return [write(scope) ? 'write:packages' : 'read:packages'];
  } else {
    if (['issues', 'pulls', 'actions', 'packages'].includes(resource)) return [write(scope) ? 'api' : 'read_api'];
    if (resource === 'repos') return [write(scope) ? 'write_repository' : 'read_repository'];
  }
  return [`${resource}:${permission}`];
}

/** Granted scopes that include another (GitHub's write:packages its read, GitLab's api its read_api): a token holding the wider one is enough. */
const IMPLIED: Record<ScopedForge, Record<string, readonly string[]>> = {
  github: { 'write:packages': ['read:packages'] },
  gitlab: { api: ['read_api'], write_repository: ['read_repository'] },
};

/** The forge scopes of `needed` the token's `granted` scopes do not cover. */
export function missingScopes(needed: readonly string[], granted: readonly string[], forge: ScopedForge): string[] {
  const covered = new Set(granted.flatMap((g) => [g, ...(IMPLIED[forge][g] ?? [])]));
  return needed.filter((n) => !covered.has(n));
}

/** Whether tokens of this forge can be asked for their scopes; undefined is a forge not recognised by its host. */
export function isScopedForge(type: ForgeType | undefined): type is ScopedForge {
  return type === 'github' || type === 'gitlab';
}

/** Why a forge's token scopes cannot be checked (Wave warns and goes on for these). */
export function uncheckableForge(type: ForgeType | undefined, from: string): string {
  if (type === 'local') return `the project has no forge (${from})`;
  if (type === undefined) return `the forge could not be told from ${from}; set metadata.forge (github or gitlab)`;
  return `${type} tokens do not tell their scopes (only GitHub's and GitLab's do)`;
}

/** The variables a forge's token is read from, in Wave's order (internal/forge/token.go). */
export function tokenVariables(forge: ScopedForge): readonly string[] {
  return forge === 'github' ? ['GH_TOKEN', 'GITHUB_TOKEN'] : ['GITLAB_TOKEN', 'GL_TOKEN'];
}
