import { z } from 'zod';

/** The edge target that ends the walk: the run completes without going further. */
export const COMPLETE_TARGET = '_complete';

/** Wave's default per-step visit limit (`max_visits`). */
export const DEFAULT_MAX_VISITS = 10;

/** Wave's default limit of all visits in a graph-mode run (`max_step_visits`). */
export const DEFAULT_MAX_STEP_VISITS = 50;

export const EdgeSchema = z.strictObject({
  target: z.string().describe('The step the walk goes to next, or `_complete` to end the run.'),
  condition: z
    .string()
    .optional()
    .describe('When the edge is taken: empty (always), `outcome=success`, `outcome=failure`, or `context.<key>=<value>` (a value the step published).'),
});

export type Edge = z.infer<typeof EdgeSchema>;

/** A parsed edge condition: always, on the step's outcome, or on a context value it published. */
export type EdgeCondition = { on: 'always' } | { on: 'outcome'; value: 'success' | 'failure' } | { on: 'context'; key: string; value: string };

/** Parses Wave's condition forms (condition.go); a string says why one is malformed. */
export function parseCondition(text: string | undefined): EdgeCondition | string {
  const expr = (text ?? '').trim();
  if (expr === '') return { on: 'always' };
  const eq = expr.indexOf('=');
  if (eq < 0) return `\`${expr}\` has no \`=\``;
  const left = expr.slice(0, eq).trim();
  const right = expr.slice(eq + 1).trim();
  if (left === '' || right === '') return `\`${expr}\` has an empty side`;
  if (left.startsWith('context.')) {
    const key = left.slice('context.'.length);
    return key ? { on: 'context', key, value: right } : `\`${expr}\` names no context key`;
  }
  if (left !== 'outcome') return `\`${expr}\` reads \`${left}\`, which is neither \`outcome\` nor \`context.<key>\``;
  if (right !== 'success' && right !== 'failure') return `\`${expr}\`: an outcome is \`success\` or \`failure\``;
  return { on: 'outcome', value: right };
}
