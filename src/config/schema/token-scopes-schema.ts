import { z } from 'zod';
import { TOKEN_SCOPE_FORM, TOKEN_SCOPE_PATTERN } from '../../core/forge/token-scope.js';

/** A persona's `token_scopes`: what its forge token must grant, checked against the token before a run (Wave's internal/scope). */
export const TokenScopesSchema = z
  .array(z.string().regex(TOKEN_SCOPE_PATTERN, 'expected <resource>:<permission>[@ENV_VAR]').describe(`Write a scope as ${TOKEN_SCOPE_FORM}.`))
  .describe(
    'Forge token scopes the persona needs, as <resource>:<permission>[@ENV_VAR]: before a run the token (GH_TOKEN or GITHUB_TOKEN, GITLAB_TOKEN, … or ENV_VAR) is asked for its scopes; a missing one stops the run before any step.',
  );
