import type { EventBody } from '../engine/run/context.js';
import { shortSecretWarnings } from '../engine/run/run-secrets.js';
import type { Plan } from '../plan/plan-types.js';
import { prepareSandbox, type ReadySandbox } from '../sandbox/open-sandbox.js';
import type { EgressRecord, Sandbox } from '../sandbox/types.js';
import type { ReadySkill } from '../engine/run/ready-skills.js';
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
  /** The parent's open sandbox, which the run's steps go to (its backend was checked when the parent started). */
  parentSandbox?: Sandbox;
  /** `--install-skills`: the required skills' install and init commands may run, in the sandbox. */
  installSkills?: boolean;
}

/**
 * The checks before a run is recorded, in order: the sandbox backend, the pipeline's requirements, the forge token's
 * scopes (a missing scope stops the run before anything exists). The required skills are set up in the sandbox
 * with the requirements; the ones ready are returned for the steps.
 */
export async function preflightRun(plan: Plan, options: PreflightOptions = {}): Promise<{ sandbox?: ReadySandbox; startEvents: EventBody[]; skills: ReadySkill[] }> {
  const err = options.err ?? process.stderr;
  if (!options.child) err.write([...shortSecretWarnings(plan, process.env), ...unpassedKeyWarnings(plan, process.env)].join(''));
  const sandbox = options.parentSandbox ? undefined : await readySandbox(plan, err);
  options.afterSandbox?.();
  let opened: Sandbox | undefined;
  // Not yet recorded: a connection the skills' commands were refused is said here.
  const refused = (record: EgressRecord) => {
    if (!record.allowed) err.write(`warning: a skill's setup command was refused a connection to ${record.host}:${record.port} (${record.reason ?? 'not in the allowlist'})\n`);
  };
  const open = () => options.parentSandbox ?? (opened ??= sandbox?.open(refused));
  let skills: ReadySkill[];
  try {
    skills = await checkRunRequirements(plan, err, process.env, { installSkills: options.installSkills ?? false, sandbox: open });
  } finally {
    await opened?.close();
  }
  return { sandbox, startEvents: await readyTokenScopes(plan, err), skills };
}
