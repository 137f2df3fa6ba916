import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { isRecord, type Path } from '../load/value-path.js';

/**
 * Wave's command step as written: `script` with an `exec` beside it says two things to run, and `type: command`
 * needs a script (or a command `exec`) to run.
 */
export function scriptStepErrors(step: Record<string, unknown>, label: string, at: Path, locator: Locator): WaveError[] {
  const hasScript = typeof step.script === 'string' && step.script !== '';
  const exec = isRecord(step.exec) ? step.exec : undefined;
  if (hasScript && exec) {
    return [
      new WaveError('conflicting_fields', `${label} sets both \`script\` and \`exec\``, {
        location: locator.locateKey([...at, 'script']),
        hint: "Keep one: `script` is Wave's form of `exec: { type: command, source: … }`.",
      }),
    ];
  }
  if (step.type !== 'command' || hasScript) return [];
  if (exec === undefined) {
    return [
      new WaveError('missing_field', `${label} is \`type: command\` but has no \`script\` to run`, {
        location: locator.locateKey([...at, 'type']),
        hint: 'Add `script:` with the shell commands the step runs.',
      }),
    ];
  }
  if ((exec.type ?? 'command') === 'command') return [];
  return [
    new WaveError('conflicting_fields', `${label} is \`type: command\` but its \`exec.type\` is \`${String(exec.type)}\``, {
      location: locator.locate([...at, 'exec', 'type']),
      hint: 'Remove `type: command` to run the prompt, or give the step a `script` in place of `exec`.',
    }),
  ];
}
