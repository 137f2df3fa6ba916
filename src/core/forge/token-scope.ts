/** A persona's `token_scopes` entry, parsed: `<resource>:<permission>` with an optional `@<ENV_VAR>` (Wave's internal/scope/scope.go). */
export interface TokenScope {
  /** Lower-cased; Wave's canonical ones are TOKEN_SCOPE_RESOURCES, any other passes through to the forge as written. */
  resource: string;
  permission: TokenPermission;
  /** The variable holding the token to check; absent: the forge's own (GH_TOKEN, GITLAB_TOKEN, …). */
  envVar?: string;
}

export const TOKEN_PERMISSIONS = ['read', 'write', 'admin'] as const;
export type TokenPermission = (typeof TOKEN_PERMISSIONS)[number];

/** The resources Wave maps to each forge's own scopes. */
export const TOKEN_SCOPE_RESOURCES = ['issues', 'pulls', 'repos', 'actions', 'packages'] as const;

/** The form Wave's scope.Parse accepts (permission case-insensitive), as a pattern for the manifest's schema. */
export const TOKEN_SCOPE_PATTERN = /^\s*([^\s:@]+):(read|write|admin)(?:@([A-Za-z_][A-Za-z0-9_]*))?\s*$/i;

/** How to write a scope, for hints. */
export const TOKEN_SCOPE_FORM = `<resource>:<permission>[@ENV_VAR]: permission read, write or admin; resource ${TOKEN_SCOPE_RESOURCES.slice(0, -1).join(', ')} or ${TOKEN_SCOPE_RESOURCES.at(-1)} (another is passed to the forge as written); e.g. issues:write, repos:read@GITHUB_TOKEN`;

/** Parses one entry; undefined when it is not of the form (the manifest's schema refuses those first). */
export function parseTokenScope(text: string): TokenScope | undefined {
  const match = TOKEN_SCOPE_PATTERN.exec(text);
  if (!match) return undefined;
  const [, resource, permission, envVar] = match;
  return { resource: resource!.toLowerCase(), permission: permission!.toLowerCase() as TokenPermission, ...(envVar ? { envVar } : {}) };
}
