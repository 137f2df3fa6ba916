import { WaveError } from '../../core/errors/errors.js';

/** The value of `steps.<id>.output[.field…]` given a step's output text. */
export function outputValue(stepId: string, output: string, fieldPath: string[]): string {
  // A trailing newline is how commands end their output, not part of the value.
  if (fieldPath.length === 0) return output.replace(/\r?\n$/, '');
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    throw new WaveError('template_invalid', `\`steps.${stepId}.output.${fieldPath.join('.')}\`: the output of \`${stepId}\` is not JSON`, {
      hint: `Make \`${stepId}\` print JSON, or use {{ steps.${stepId}.output }} for its text.`,
    });
  }
  for (const key of fieldPath) {
    if (value === null || typeof value !== 'object' || !(key in value)) {
      throw new WaveError('template_invalid', `\`steps.${stepId}.output.${fieldPath.join('.')}\`: the output of \`${stepId}\` has no field \`${key}\``, {
        hint: `Name a field its output has (it begins ${JSON.stringify(output.slice(0, 200))}).`,
      });
    }
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
