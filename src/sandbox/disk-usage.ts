import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes a block counts for in lstat's `blocks`, whatever the file system's own block size. */
const STAT_BLOCK = 512;

/**
 * Bytes the folders take on disk (allocated blocks, so a sparse file counts what it holds), each inode once and
 * each folder once even when one lies inside another; files that vanish or cannot be read count nothing. Stops
 * walking once the total passes `stopAt`: a runaway step is not measured to its end.
 */
export async function diskUsage(folders: readonly string[], stopAt = Number.POSITIVE_INFINITY): Promise<number> {
  const seen = new Set<string>();
  let total = 0;
  const pending = [...folders];
  while (pending.length && total <= stopAt) {
    const path = pending.pop()!;
    const stat = await lstat(path, { bigint: false }).catch(() => undefined);
    if (!stat) continue;
    const key = `${stat.dev}:${stat.ino}`;
    if (seen.has(key)) continue;
    seen.add(key);
    total += stat.blocks * STAT_BLOCK;
    if (!stat.isDirectory()) continue;
    const names = await readdir(path).catch(() => [] as string[]);
    for (const name of names) pending.push(join(path, name));
  }
  return total;
}
