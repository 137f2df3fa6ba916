import type { EventBody } from '../engine/run/context.js';
import { shortSecretWarnings } from '../engine/run/run-secrets.js';
import type { Plan } from '../plan/plan-types.js';
import { prepareSandbox, type ReadySandbox } from '../sandbox/open-sandbox.js';
import { checkRunRequirements } from './run-requirements.js';
import type { TextWriter } from './text-writer.js';
import { readyTokenScopes } from './token-scope-preflight.js';

/** Checks the plan's sandbox backend before a run starts and writes its warnings; throws sandbox_unavailable. */
export async function readySandbox(plan: Plan, err: TextWriter = process.stderr): Promise<ReadySandbox> {
  const ready = await prepareSandbox(plan.runtime.sandbox);
  for (const warning of ready.warnings) err.write(`warning: ${warning}\n`);
  return ready;
}

/**
 * The checks before a run is recorded, in order: the sandbox backend, the pipeline's requirements, the forge token's
 * scopes (a missing scope stops the run before anything exists). `afterSandbox` runs between the first two.
 */
export async function preflightRun(plan: Plan, afterSandbox?: () => void, err: TextWriter = process.stderr): Promise<{ sandbox: ReadySandbox; startEvents: EventBody[] }> {
  err.write(shortSecretWarnings(plan, process.env).join(''));
  const sandbox = await readySandbox(plan, err);
  afterSandbox?.();
  await checkRunRequirements(plan, err);
  return { sandbox, startEvents: await readyTokenScopes(plan, err) };
}
