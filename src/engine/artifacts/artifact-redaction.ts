import type { Plan } from '../../plan/plan-types.js';
import { runSecretValues } from '../run/run-secrets.js';
import { Redactor } from '../../redact.js';
import type { RunContext } from '../run/context.js';

const byPlan = new WeakMap<Plan, Redactor | null>();

/**
 * What hides the run's secrets in stored artifact copies: the values the run took from the environment (the same
 * ones as the run's redactor) and their URL-encoded forms, without the token shapes, since an artifact's text is
 * data a later step reads. Undefined when the run has no secret: the copy is then byte for byte.
 */
export function artifactRedactor(context: RunContext): Redactor | undefined {
  let redactor = byPlan.get(context.plan);
  if (redactor === undefined) {
    const made = new Redactor(runSecretValues(context.plan, context.parentEnv), { tokenShapes: false });
    redactor = made.secretCount > 0 ? made : null;
    byPlan.set(context.plan, redactor);
  }
  return redactor ?? undefined;
}
