import { runSecretValues } from '../engine/run/run-secrets.js';
import type { Plan } from '../plan/plan-types.js';
import { Redactor } from '../redact.js';

/** The redactor of a run: every value it takes from the environment (run-secrets.ts), their URL-encoded forms, and common token shapes. */
export function runRedactor(plan: Plan, env: NodeJS.ProcessEnv = process.env): Redactor {
  return new Redactor(runSecretValues(plan, env));
}
