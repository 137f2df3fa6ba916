import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { WaveError } from '../core/errors/errors.js';
import { describeCause, diskFaultHint } from '../io-error.js';

/** What to do when the workflow could not be written to `path`: a path that is no folder (or is one) wants another -o. */
function writeFailureHint(path: string, cause: unknown): string {
  switch ((cause as NodeJS.ErrnoException | undefined)?.code) {
    case 'ENOTDIR':
    case 'EEXIST':
      return `A part of ${path} is a file, not a folder; choose another -o path.`;
    case 'EISDIR':
      return `The path ${path} is a folder; give -o a file name inside it, such as ${path}/wave.yml.`;
    default:
      return diskFaultHint(path, cause, 'compile again');
  }
}

/** Writes the workflow to `file`, creating its folder (and the folders above it) when missing; a failure names the path and its cause. */
export function writeWorkflowFile(file: string, text: string): void {
  const folder = dirname(file);
  try {
    mkdirSync(folder, { recursive: true });
  } catch (cause) {
    // mkdir says EEXIST, in words of its own, when a file stands where a folder should be.
    const why = (cause as NodeJS.ErrnoException).code === 'EEXIST' ? 'a file of that name is in the way (EEXIST)' : describeCause(cause);
    throw new WaveError('io_error', `cannot create the folder ${folder} for the workflow: ${why}`, { hint: writeFailureHint(folder, cause), cause });
  }
  try {
    writeFileSync(file, text);
  } catch (cause) {
    throw new WaveError('io_error', `cannot write the workflow to ${file}: ${describeCause(cause)}`, { hint: writeFailureHint(file, cause), cause });
  }
}
