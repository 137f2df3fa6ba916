import { WaveError } from '../../core/errors/errors.js';
import { runsCommand } from './script-step.js';
import type { Locator } from '../load/locator.js';

/**
 * Keys that only reach an agent: on a command step (no agent) they would do nothing, and `max_concurrent_agents`
 * is said in the persona's system prompt, so a step without a persona has nowhere to say it.
 */
export function agentStepKeyErrors(step: Record<string, unknown>, index: number, label: string, locator: Locator): WaveError[] {
  const errors: WaveError[] = [];
  const isCommand = runsCommand(step);
  for (const key of ['skills', 'max_concurrent_agents'] as const) {
    if (step[key] === undefined || !isCommand) continue;
    errors.push(
      new WaveError('conflicting_fields', `${label} sets \`${key}\`, but it is a command step: no agent runs to receive it`, {
        location: locator.locateKey(['steps', index, key]),
        hint: `Remove \`${key}\`, or make the step a prompt step with a persona.`,
      }),
    );
  }
  if (!isCommand && step.max_concurrent_agents !== undefined && step.persona === undefined) {
    errors.push(
      new WaveError('missing_field', `${label} sets \`max_concurrent_agents\` but has no persona, whose system prompt would say it`, {
        location: locator.locateKey(['steps', index, 'max_concurrent_agents']),
        hint: 'Give the step a `persona`, or remove `max_concurrent_agents`.',
      }),
    );
  }
  return errors;
}
