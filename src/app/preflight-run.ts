import type { EventBody } from '../engine/run/context.js';
import { shortSecretWarnings } from '../engine/run/run-secrets.js';
import type { Plan } from '../plan/plan-types.js';
import { prepareSandbox, type ReadySandbox } from '../sandbox/open-sandbox.js';
import { checkRunRequirements } from './run-requirements.js';
import { unpassedKeyWarnings } from './unpassed-keys.js';
import type { TextWriter } from './text-writer.js';
import { readyTokenScopes } from './token-scope-preflight.js';

/** Checks the plan's sandbox backend before a run starts and writes its warnings; throws sandbox_unavailable. */
export async function readySandbox(plan: Plan, err: TextWriter = process.stderr): Promise<ReadySandbox> {
  const ready = await prepareSandbox(plan.runtime.sandbox);
  for (const warning of ready.warnings) err.write(`warning: ${warning}\n`);
  return ready;
}

/** How preflightRun goes. */
export interface PreflightOptions {
  /** Runs between the sandbox check and the requirements (the Action's cancel point). */
  afterSandbox?: () => void;
  err?: TextWriter;
  /** A child run: its parent warned of short secrets and unpassed keys already (the same manifest's). */
  child?: boolean;
  /** The run's steps go to its parent's open sandbox, whose backend was checked when the parent started. */
  sandboxShared?: boolean;
}

/**
 * The checks before a run is recorded, in order: the sandbox backend, the pipeline's requirements, the forge token's
 * scopes (a missing scope stops the run before anything exists).
 */
export async function preflightRun(plan: Plan, options: PreflightOptions = {}): Promise<{ sandbox?: ReadySandbox; startEvents: EventBody[] }> {
  const err = options.err ?? process.stderr;
  if (!options.child) err.write([...shortSecretWarnings(plan, process.env), ...unpassedKeyWarnings(plan, process.env)].join(''));
  const sandbox = options.sandboxShared ? undefined : await readySandbox(plan, err);
  options.afterSandbox?.();
  await checkRunRequirements(plan, err);
  return { sandbox, startEvents: await readyTokenScopes(plan, err) };
}
