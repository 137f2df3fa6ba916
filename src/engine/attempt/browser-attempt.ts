import { join, normalize, sep } from 'node:path';
import type { BrowserAttempt } from '../../adapters/types.js';
import { SCREENSHOT_DIR } from '../../core/browser/screenshot-file.js';
import type { ResolvedPersona } from '../../core/resolved-adapter.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import { resolverFromEnv } from '../../sandbox/egress/static-resolver.js';
import type { RunContext } from '../run/context.js';
import { recordEgress } from '../run/egress-record.js';

/** Where a browser attempt runs: its number, the folder its artifact paths are read from, and who it runs as. */
export interface BrowserPlace {
  attempt: number;
  workspace: string;
  attemptDir: string;
  persona?: ResolvedPersona | undefined;
}

/**
 * A browser attempt's extras: the step's file artifacts its results fill (not its screenshots), and, with a sandbox
 * backend, the step's allowlist and the record of each egress decision, as a sandboxed step's proxy has them.
 */
export function browserAttempt(context: RunContext, step: AttemptStep, place: BrowserPlace): BrowserAttempt {
  const screenshots = normalize(SCREENSHOT_DIR) + sep;
  const resultFiles = step.outputArtifacts
    .filter((def) => def.source !== 'stdout' && def.path !== undefined && !normalize(def.path).startsWith(screenshots))
    .map((def) => join(place.workspace, def.path!));
  const { sandbox } = context;
  if (!sandbox || sandbox.backend === 'none') return { resultFiles };
  const scope = { runId: context.store.record.id, stepId: step.id, attempt: place.attempt, workspace: place.workspace, attemptDir: place.attemptDir, endpoints: [] };
  const allowedDomains = [...context.plan.runtime.sandbox.defaultAllowedDomains, ...((place.persona ?? step.persona)?.allowedDomains ?? [])];
  const resolver = resolverFromEnv(context.parentEnv);
  return {
    resultFiles,
    egress: { allowedDomains, ...(resolver ? { resolver } : {}), onDecision: (decision) => recordEgress(context, { scope: { ...scope, allowedDomains }, ...decision }) },
  };
}
