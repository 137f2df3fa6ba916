import { readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { isInside } from '../../core/inside-path.js';

/** True when `name` can be one folder or file name: no separator, not `.` or `..`, not empty. */
export function isSingleSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\\') && !name.includes('\0');
}

/**
 * The real path of `path`, following symlinks even when their target does not exist yet (a dangling link
 * resolves to where it points), and keeping the missing tail of a path that is not created yet.
 */
export async function realpathOfNearest(path: string, hops = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const link = await readlink(path).catch(() => undefined);
  if (link !== undefined) {
    if (hops > 40) throw Object.assign(new Error(`too many symlinks at ${path}`), { code: 'ELOOP' });
    return realpathOfNearest(resolve(dirname(path), link), hops + 1);
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return resolve(await realpathOfNearest(parent, hops), relative(parent, path));
}

/**
 * Resolves `relativePath` below `root` and returns the absolute path, or undefined when it escapes `root`:
 * an absolute path, `..` segments leading out, or a symlink (anywhere on the way) whose real path leaves it.
 */
export async function resolveInside(root: string, relativePath: string, allowRoot = false): Promise<string | undefined> {
  if (relativePath.includes('\0') || isAbsolute(relativePath)) return undefined;
  const lexical = resolve(root, relativePath);
  if (!isInside(root, lexical, allowRoot)) return undefined;
  const [realRoot, real] = await Promise.all([realpathOfNearest(root), realpathOfNearest(lexical)]);
  return isInside(realRoot, real, allowRoot) ? lexical : undefined;
}
