import { WaveError } from '../core/errors/errors.js';

// The run store's rule for folder names.
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Parses --run-id: a run id is a folder name. */
export function runIdArgument(value: string): string {
  if (!RUN_ID.test(value)) {
    throw new WaveError('invalid_argument', `--run-id expects letters, digits, \`.\`, \`_\` or \`-\` (not first), got \`${value}\``, {
      hint: 'Name the run with a folder-safe id, e.g. `review-gh-1234-1`.',
    });
  }
  return value;
}
