import { checkRequirements, missingRequirementErrors } from '../engine/steps/requirements.js';
import type { ReadySkill } from '../engine/run/ready-skills.js';
import type { Plan } from '../plan/plan-types.js';
import type { Sandbox } from '../sandbox/types.js';
import { WaveErrors } from '../core/errors/errors.js';
import { setUpSkills } from './skill-setup.js';
import type { TextWriter } from './text-writer.js';

/** What the requirements check may do beyond checking: the run's opt-in to skill commands, and the sandbox they run in. */
export interface RequirementsSetup {
  /** `--install-skills` (the manifest's runtime.skills.allow_install counts too). */
  installSkills?: boolean;
  /** Opens the run's sandbox for the skills' install and check commands; absent: none may run. */
  sandbox?: () => Sandbox | undefined;
}

/**
 * Checks the plan's `requires` before any step runs and sets up its skills (app/skill-setup.ts): writes a warning per
 * optional skill skipped, throws requirement_missing for the rest; returns the skills ready for the steps.
 */
export async function checkRunRequirements(
  plan: Plan,
  err: TextWriter = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
  setup: RequirementsSetup = {},
): Promise<ReadySkill[]> {
  const checked = await checkRequirements(plan.requires, plan.projectRoot, env);
  const allowed = (setup.installSkills ?? false) || plan.requires.allowInstall;
  // The sandbox is opened only when a skill has something to run in it.
  const needsSandbox = allowed && plan.requires.skills.some((skill) => skill.init !== undefined || skill.install !== undefined);
  const { statuses, ready } = await setUpSkills(plan, checked, { allowed, sandbox: needsSandbox ? setup.sandbox?.() : undefined, env });
  for (const s of statuses) {
    if (!s.ok && s.optional) err.write(`warning: optional skill \`${s.name}\` is ${s.idle ? 'skipped' : 'missing'} (${s.detail}); the run goes on without it\n`);
  }
  const errors = missingRequirementErrors(statuses, plan.pipelineName);
  if (errors.length) throw new WaveErrors(errors);
  return ready;
}
