import { readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isInside } from '../../../core/inside-path.js';
import type { Failure } from '../../../core/errors/failure.js';

/** The fixture file of a step that holds its answer text: `<dir>/<step id>/answer.txt`. */
export const ANSWER_FIXTURE = 'answer.txt';

/** A fixture read: its bytes, none (`undefined`: the output is generated), or why it is refused. */
export type FixtureRead = { bytes: Buffer } | undefined | { failure: Failure };

/**
 * The fixture `<root>/<step id>/<path>` of --simulate-outputs: its bytes, undefined when there is none, or a refusal
 * when the path (through `..` or a symlink) leads out of the step's fixture folder or is not a file.
 */
export async function readFixture(root: string, stepId: string, path: string): Promise<FixtureRead> {
  const shown = `${stepId}/${path}`;
  const folder = resolve(root, stepId);
  const wanted = resolve(folder, path);
  if (!isInside(folder, wanted, false)) return refused(shown, 'its path leads out of the folder');
  let real: string;
  try {
    real = await realpath(wanted);
  } catch {
    return undefined;
  }
  // The step's folder as it lies in the real fixture folder: a symlink anywhere on the way out of it is refused.
  if (!isInside(join(await realpath(root), stepId), real, false)) return refused(shown, 'a symlink leads out of the folder');
  if (!(await stat(real)).isFile()) return refused(shown, 'it is not a file');
  return { bytes: await readFile(real) };
}

function refused(shown: string, why: string): { failure: Failure } {
  return {
    failure: {
      class: 'simulate_fixture_invalid',
      message: `the --simulate-outputs fixture ${shown} is refused: ${why}`,
      hint: 'Keep each fixture a plain file inside the --simulate-outputs folder, at <step id>/<output path>.',
    },
  };
}
