import type { Located } from '../config/load/load.js';
import { formatError } from '../core/errors/errors.js';

/**
 * The warnings of the loaded files (settings nothing in a run here uses), as `warning: file:line:col: …` lines:
 * printed once on stderr before anything runs, so what is ignored is never ignored silently.
 */
export function configWarningsText(files: ReadonlyArray<Pick<Located<unknown>, 'warnings'>>): string {
  const lines = files.flatMap((file) => file.warnings.map((warning) => `warning: ${formatError(warning)}`));
  return lines.length ? `${lines.join('\n')}\n` : '';
}
