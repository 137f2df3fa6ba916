import type { Stats } from 'node:fs';
import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** One entry of a folder tree, symlinks not followed; `path` is relative to the walked root ('' is the root). */
export interface TreeEntry {
  path: string;
  absolute: string;
  stats: Stats;
}

/** Lists `root` and everything below it depth-first in sorted name order, never following symlinks. */
export async function walkTree(root: string): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  const visit = async (absolute: string, path: string): Promise<void> => {
    const stats = await lstat(absolute);
    entries.push({ path, absolute, stats });
    if (!stats.isDirectory()) return;
    const names = (await readdir(absolute)).sort();
    for (const name of names) await visit(join(absolute, name), path === '' ? name : `${path}/${name}`);
  };
  await visit(root, '');
  return entries;
}

/** Removes the write bits of every file and folder below `root` (symlinks have no mode of their own). */
export async function makeTreeReadonly(root: string): Promise<void> {
  for (const entry of await walkTree(root)) {
    if (!entry.stats.isSymbolicLink()) await chmod(entry.absolute, entry.stats.mode & 0o7555);
  }
}

/** Removes `path` and all it holds; folders made readonly (a readonly mount) are made writable first. */
export async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
    for (const entry of await walkTree(path)) {
      if (entry.stats.isDirectory()) await chmod(entry.absolute, entry.stats.mode | 0o700);
    }
    await rm(path, { recursive: true, force: true });
  }
}
