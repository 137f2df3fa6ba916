import { adapterKeyVariables, endpointVariables } from '../adapters/access-mode.js';
import { AGENT_CLIS } from '../adapters/agent-clis.js';
import { isAgentCliType, type ResolvedAdapter } from '../core/resolved-adapter.js';
import { parseTokenScope } from '../core/forge/token-scope.js';
import { isScopedForge, tokenVariables } from '../forge/forge-scopes.js';
import type { Plan, AttemptStep } from '../plan/plan-types.js';
import { stepAdapters } from '../plan/plan-adapters.js';

// `$NAME` or `${NAME}`, as a shell reads a variable.
const SHELL_VARIABLE = /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g;

/** The variables an adapter reads its key and model endpoint from: its api_key_env and its CLI's own. */
function adapterVariables(adapter: ResolvedAdapter): string[] {
  return [...adapterKeyVariables(adapter), ...endpointVariables(adapter.type)];
}

/** The forge token variables the token_scopes of the step's persona are checked on. */
function tokenVariablesOf(plan: Plan, step: AttemptStep): string[] {
  const forge = plan.forge.info.type;
  return plan.forge.scopes
    .filter((entry) => entry.persona === step.persona?.name)
    .flatMap((entry) => parseTokenScope(entry.scope)?.envVar ?? (isScopedForge(forge) ? tokenVariables(forge) : []));
}

/**
 * The secrets (of `secrets`, the manifest's env_passthrough) a step's job gets: its adapters' keys and endpoints, its
 * persona's forge token, the variables its command or prompt names, and, for an agent CLI, whose tools may read any
 * variable, every secret that is no model's key. A step that needs none gets none.
 */
export function stepSecrets(plan: Plan, step: AttemptStep, secrets: readonly string[]): string[] {
  const modelKeys = new Set([
    ...AGENT_CLIS.flatMap((cli) => [...cli.keyVariables, ...cli.endpoint.variables]),
    ...plan.steps.flatMap((s) => stepAdapters(s).flatMap(adapterVariables)),
  ]);
  const named = [...step.template.matchAll(SHELL_VARIABLE)].map((m) => m[1]!);
  const own = new Set([...stepAdapters(step).flatMap(adapterVariables), ...tokenVariablesOf(plan, step), ...named]);
  const agentTools = isAgentCliType(step.adapter.type);
  return secrets.filter((name) => own.has(name) || (agentTools && !modelKeys.has(name)));
}
