import { randomBytes } from 'node:crypto';
import { copyFile, lstat, mkdir, readdir, realpath, rename, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { WaveError } from '../errors.js';
import { removeTree } from './workspace-files.js';
import { isInside, realpathOfNearest } from './workspace-paths.js';

/** What a copy is called in messages: the artifact and where it was taken from. */
export interface CopyLabel {
  artifact: string;
  /** The path as the pipeline wrote it. */
  path: string;
}

function escapeError(label: CopyLabel, inner: string, target: string): WaveError {
  const where = inner === '' ? `\`${label.path}\`` : `\`${label.path}/${inner}\``;
  return new WaveError('artifact_path_invalid', `artifact \`${label.artifact}\`: ${where} leads outside the workspace (to ${target}); nothing was copied`, {
    hint: 'An artifact must be a file or folder inside the step workspace; symlinks out of it are refused.',
  });
}

/**
 * Copies the file or folder `source` to `dest` (replacing it) and returns the bytes copied. Symlinks are followed
 * only while their real path stays inside `root`; one leading out refuses the whole copy, and nothing lands at
 * `dest` unless everything was copied (the copy is made beside it and renamed).
 */
export async function copyContained(source: string, dest: string, root: string, label: CopyLabel): Promise<number> {
  const realRoot = await realpath(root);
  await mkdir(dirname(dest), { recursive: true });
  const partial = join(dirname(dest), `.${basename(dest)}.partial-${randomBytes(4).toString('hex')}`);
  try {
    const bytes = await copyEntry(source, partial, '', { realRoot, label, ancestors: new Set() });
    await removeTree(dest);
    await rename(partial, dest);
    return bytes;
  } catch (error) {
    await removeTree(partial);
    throw error;
  }
}

interface CopyWalk {
  realRoot: string;
  label: CopyLabel;
  ancestors: ReadonlySet<string>;
}

async function copyEntry(source: string, dest: string, inner: string, walk: CopyWalk): Promise<number> {
  const target = await realpathOfNearest(source);
  if (!isInside(walk.realRoot, target)) throw escapeError(walk.label, inner, target);
  const link = await lstat(source);
  // A broken symlink inside the workspace has nothing to copy.
  if (link.isSymbolicLink() && !(await stat(target).then(() => true, () => false))) return 0;
  const real = await realpath(source);
  const stats = await stat(real);
  if (stats.isFile()) {
    await copyFile(real, dest);
    return stats.size;
  }
  if (!stats.isDirectory()) return 0;
  if (walk.ancestors.has(real)) {
    throw new WaveError('artifact_path_invalid', `artifact \`${walk.label.artifact}\`: \`${walk.label.path}/${inner}\` is a symlink loop`, {
      hint: 'Remove the symlink that points at a folder containing it.',
    });
  }
  await mkdir(dest);
  const ancestors = new Set([...walk.ancestors, real]);
  let bytes = 0;
  for (const name of (await readdir(real)).sort()) {
    bytes += await copyEntry(join(real, name), join(dest, name), inner === '' ? name : `${inner}/${name}`, { ...walk, ancestors });
  }
  return bytes;
}
