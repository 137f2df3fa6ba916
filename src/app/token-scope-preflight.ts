import type { EventBody } from '../engine/run/context.js';
import { checkTokenScopes } from '../forge/token-scope-check.js';
import type { Plan } from '../plan/plan-types.js';
import type { TextWriter } from './text-writer.js';

/**
 * Checks the personas' token_scopes before a run (throws token_scope_missing); what could not be checked is said on
 * `err` at once and returned as the events the run records when it starts.
 */
export async function readyTokenScopes(plan: Plan, err: TextWriter = process.stderr, env: NodeJS.ProcessEnv = process.env): Promise<EventBody[]> {
  const unchecked = await checkTokenScopes(plan, env);
  for (const notice of unchecked) {
    err.write(`warning: the token scopes of persona \`${notice.persona}\` (${notice.scopes.join(', ')}) could not be checked: ${notice.reason}\n`);
  }
  return unchecked.map((notice) => ({ type: 'token_scopes_unchecked', ...notice }));
}
