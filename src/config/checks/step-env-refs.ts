import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { stepLabel } from './raw-step.js';
import { isRecord } from '../load/value-path.js';

// `${VAR}` or `${VAR:-default}`, as the manifest expands them.
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/;

/**
 * A step's `env` value holding `${VAR}`: a pipeline is never expanded (as in Wave) and an env value reaches the
 * process as written, through no shell, so the reference would arrive as literal text. Refused, saying how to pass it.
 */
export function stepEnvReferenceErrors(step: Record<string, unknown>, index: number, locator: Locator): WaveError[] {
  if (!isRecord(step.env)) return [];
  const label = stepLabel(step, index);
  return Object.entries(step.env).flatMap(([name, value]) => {
    const found = typeof value === 'string' ? REFERENCE.exec(value) : null;
    if (!found) return [];
    return [
      new WaveError('wrong_type', `\`env.${name}\` of ${label} is \`${value as string}\`: a pipeline's \`\${${found[1]}}\` is not expanded, so the step would get it as written`, {
        location: locator.locate(['steps', index, 'env', name]),
        hint: `To hand ${found[1]} from wave's environment to the step, list it in runtime.sandbox.env_passthrough (or set it in a persona's \`env\` in wave.yaml, where \${VAR} expands); in a command, write \${${found[1]}} in the command itself, where the shell expands it.`,
      }),
    ];
  });
}
