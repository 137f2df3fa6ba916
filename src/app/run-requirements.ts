import { checkRequirements, missingRequirementErrors } from '../engine/steps/requirements.js';
import type { Plan } from '../plan/plan-types.js';
import { WaveErrors } from '../core/errors/errors.js';
import type { TextWriter } from './text-writer.js';

/** Checks the plan's `requires` before any step runs: writes a warning per missing optional skill, throws requirement_missing for the rest. */
export async function checkRunRequirements(plan: Plan, err: TextWriter = process.stderr, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const statuses = await checkRequirements(plan.requires, plan.projectRoot, env);
  for (const s of statuses) if (!s.ok && s.optional) err.write(`warning: optional skill \`${s.name}\` is missing (${s.detail}); the run goes on without it\n`);
  const errors = missingRequirementErrors(statuses, plan.pipelineName);
  if (errors.length) throw new WaveErrors(errors);
}
