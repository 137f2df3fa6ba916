import { WaveError } from '../core/errors/errors.js';
import { RUN_ID_PATTERN } from '../state/run-id.js';

/** Parses --run-id: a run id is a folder name. */
export function runIdArgument(value: string): string {
  if (!RUN_ID_PATTERN.test(value)) {
    throw new WaveError('invalid_argument', `--run-id expects letters, digits, \`.\`, \`_\` or \`-\` (not first), got \`${value}\``, {
      hint: 'Name the run with a folder-safe id, e.g. `review-gh-1234-1`.',
    });
  }
  return value;
}
