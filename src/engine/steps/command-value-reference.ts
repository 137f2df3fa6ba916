import { valueReference, valueVariable } from '../../adapters/process/command-values.js';
import type { QuotedContext } from '../../plan/shell-context.js';

/**
 * What a command holds in place of its n-th value where the value's reference sits. Each form is one parameter
 * expansion the shell makes once, as one word, and never parses again, so the value stays data whatever it holds.
 */
export function valueReferenceIn(slot: number, context: QuotedContext | undefined): string {
  switch (context) {
    case undefined:
      return valueReference(slot);
    // Close the single quotes, expand in double quotes, reopen: `'a {{ x }} b'` becomes `'a '"$WAVE_VALUE_1"' b'`.
    case 'single quotes':
      return `'${valueReference(slot)}'`;
    // Inside double quotes or a heredoc's body the expansion is already one word; a `"` there would be a character.
    case 'double quotes':
    case 'a heredoc':
      return `\${${valueVariable(slot)}}`;
    default:
      throw new Error(`a template value cannot be put inside ${context}`);
  }
}
