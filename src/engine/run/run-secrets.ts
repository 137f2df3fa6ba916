import { adapterKeyVariables } from '../../adapters/access-mode.js';
import { BASE_NAMES } from '../../process/environment.js';
import { planAdapters } from '../../plan/plan-adapters.js';
import { isAttemptStep, type Plan } from '../../plan/plan-types.js';
import { MIN_SECRET_LENGTH } from '../../redact.js';
import { otlpDestinationOf } from '../../trace/otlp-destination.js';

// Every step is handed these from the parent unredacted; a `${HOME}` in a path is no secret (and would blank every path).
const NOT_SECRET: ReadonlySet<string> = new Set(BASE_NAMES);

/** Words of a variable's name that say its value is a secret (`GITHUB_TOKEN`, `DB_PASSWORD`, `X_API_KEY`, `APIKEY`). */
const SECRET_WORDS = /(?:^|_)(?:[A-Z]*KEYS?|[A-Z]*TOKENS?|[A-Z]*SECRETS?|PASSWORD|PASSWD|PASS|PASSPHRASE|CREDENTIALS?|CREDS|AUTH|AUTHORIZATION|PRIVATE|COOKIE)(?:_|$)/;

/** Whether a variable's name says it holds a secret, or the manifest declares it one (runtime.sandbox.secret_env). */
export function isSecretVariable(name: string, declared: readonly string[]): boolean {
  return declared.includes(name) || (!NOT_SECRET.has(name) && SECRET_WORDS.test(name.toUpperCase()));
}

/**
 * The secret values a run takes from the environment, for its redactor: of the passthrough variables and what the
 * manifest's `${VAR}` references took (not their literal defaults), those whose names say they are secret or that
 * runtime.sandbox.secret_env declares; and the API keys (each adapter's api_key_env, read from the parent by the llm
 * runner, and the CLIs' own key variables where a step's env sets them); and the trace collector's header values, which
 * traced agents are handed. Anything else — a model name, a base URL,
 * a scenario — is data and stays in the records. The Redactor adds each value's URL-encoded form.
 */
export function runSecretValues(plan: Plan, env: NodeJS.ProcessEnv): string[] {
  return [...new Set(runSecretEntries(plan, env).map(([, value]) => value))];
}

/** The same secrets as runSecretValues, each with the variable it came from (a recording names it in its placeholder); first name wins. */
export function runSecretEntries(plan: Plan, env: NodeJS.ProcessEnv): Array<[name: string, value: string]> {
  const entries = new Map<string, string>();
  const add = (name: string, value: string | undefined) => {
    if (value && !entries.has(value)) entries.set(value, name);
  };
  const declared = plan.runtime.secretEnv;
  for (const name of plan.runtime.envPassthrough) if (isSecretVariable(name, declared)) add(name, env[name]);
  for (const [name, value] of Object.entries(plan.envTaken)) if (isSecretVariable(name, declared)) add(name, value);
  for (const name of declared) add(name, env[name]);
  // The collector's headers (a key, a token) go to traced agents: named so a replay never fills them in from elsewhere.
  for (const [header, value] of Object.entries(otlpDestinationOf(env, plan.runtime.telemetry?.otlp)?.headers ?? {}))
    add(`OTLP_HEADER_${header.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`, value);
  const stepEnvs = plan.steps.flatMap((step) => (isAttemptStep(step) ? [step.env] : []));
  for (const adapter of planAdapters(plan)) {
    if (adapter.apiKeyEnv) add(adapter.apiKeyEnv, env[adapter.apiKeyEnv]);
    for (const name of adapterKeyVariables(adapter)) {
      add(name, adapter.env[name]);
      for (const stepEnv of stepEnvs) add(name, stepEnv[name]);
    }
  }
  return [...entries].map(([value, name]) => [name, value]);
}

/** A warning for each variable runtime.sandbox.secret_env declares whose value is too short to be redacted. */
export function shortSecretWarnings(plan: Plan, env: NodeJS.ProcessEnv): string[] {
  return plan.runtime.secretEnv.flatMap((name) => {
    const length = env[name]?.length ?? 0;
    return length > 0 && length < MIN_SECRET_LENGTH
      ? [`warning: runtime.sandbox.secret_env \`${name}\` holds ${length} characters, fewer than the ${MIN_SECRET_LENGTH} Wave redacts: it is not hidden\n`]
      : [];
  });
}
