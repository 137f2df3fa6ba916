import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { ATTEMPT_KEYS, idleKeyErrors } from './child-pipeline-checks.js';
import { stepLabel } from './raw-step.js';

/**
 * A loop step runs its sub-steps and nothing else: keys of another kind of step would do nothing, and Wave's child
 * pipeline run at the top of each iteration (`pipeline` beside `loop`) is refused by name (a `pipeline:` sub-step does it).
 */
export function loopStepErrors(step: Record<string, unknown>, index: number, locator: Locator): WaveError[] {
  const at = ['steps', index];
  const label = stepLabel(step, index);
  const errors = idleKeyErrors(step, [...ATTEMPT_KEYS, 'input', 'config', 'iterate', 'aggregate', 'branch', 'gate'], (key) => ({
    location: locator.locateKey([...at, key]),
    message: `${label} loops, so its \`${key}\` would do nothing`,
    hint: `Remove \`${key}\`, or move that work into a sub-step of \`loop.steps\`.`,
  }));
  if (step.pipeline !== undefined)
    errors.push(
      new WaveError('not_supported', `${label}: a child pipeline beside \`loop\` (run at the top of each iteration) is not supported`, {
        location: locator.locateKey([...at, 'pipeline']),
        hint: 'Make it the first sub-step of `loop.steps` (`- id: child` with `pipeline: <name>`), and let the other sub-steps depend on it.',
      }),
    );
  return errors;
}
