import { KEY_VARIABLES } from '../adapters/access-mode.js';
import { BASE_NAMES } from '../adapters/environment.js';
import type { ResolvedAdapter } from '../core/resolved-adapter.js';
import type { Plan } from '../plan/plan-types.js';

// Every step is handed these from the parent unredacted; a `${HOME}` in a path is no secret (and would blank every path).
const NOT_SECRET: ReadonlySet<string> = new Set(BASE_NAMES);

/** Every adapter a plan may call: each step's own, its fallbacks, its extract's and its judges'. */
function planAdapters(plan: Plan): ResolvedAdapter[] {
  return plan.steps.flatMap((step) => [
    step.adapter,
    ...step.fallbacks,
    ...(step.extract?.adapter ? [step.extract.adapter] : []),
    ...step.contracts.flatMap((contract) => (contract.judge ? [contract.judge] : [])),
  ]);
}

/**
 * Every value a run takes from the environment, for its redactor: the passthrough variables, what the manifest's
 * `${VAR}` references took (not their literal defaults; HOME, PATH, TERM and TMPDIR aside), and the API
 * keys (each adapter's api_key_env, read from the parent by the llm runner, and the CLIs' own key variables where a
 * step's env sets them). The Redactor adds each value's URL-encoded form.
 */
export function runSecretValues(plan: Plan, env: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>();
  const add = (value: string | undefined) => {
    if (value) values.add(value);
  };
  for (const name of plan.runtime.envPassthrough) add(env[name]);
  for (const [name, value] of Object.entries(plan.envTaken)) if (!NOT_SECRET.has(name)) add(value);
  const stepEnvs = plan.steps.map((step) => step.env);
  for (const adapter of planAdapters(plan)) {
    if (adapter.apiKeyEnv) add(env[adapter.apiKeyEnv]);
    for (const name of [...(adapter.apiKeyEnv ? [adapter.apiKeyEnv] : []), ...(KEY_VARIABLES[adapter.type] ?? [])]) {
      add(adapter.env[name]);
      for (const stepEnv of stepEnvs) add(stepEnv[name]);
    }
  }
  return [...values];
}
