import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { walkTree } from './workspace-files.js';

/** What a readonly mount held: one entry per path, sorted by path ('' is the mount itself). */
export interface FingerprintEntry {
  path: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  /** sha256 of a file's content, or a symlink's target. */
  digest?: string;
}

export type TreeFingerprint = FingerprintEntry[];

/** How the tree differs from its fingerprint, at the first differing path. */
export interface FingerprintChange {
  path: string;
  change: 'modified' | 'added' | 'removed';
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** Records the paths, kinds, sizes and content hashes of everything below `root` (symlinks not followed). */
export async function fingerprintTree(root: string): Promise<TreeFingerprint> {
  const result: TreeFingerprint = [];
  for (const { path, absolute, stats } of await walkTree(root)) {
    if (stats.isFile()) {
      result.push({ path, kind: 'file', size: stats.size, digest: await sha256OfFile(absolute) });
    } else if (stats.isDirectory()) {
      result.push({ path, kind: 'dir', size: 0 });
    } else if (stats.isSymbolicLink()) {
      result.push({ path, kind: 'symlink', size: 0, digest: await readlink(absolute) });
    } else {
      result.push({ path, kind: 'other', size: 0 });
    }
  }
  return result;
}

/** The first path (in sorted order) where `after` differs from `before`, or undefined when they are the same. */
export function firstChange(before: TreeFingerprint, after: TreeFingerprint): FingerprintChange | undefined {
  const old = new Map(before.map((e) => [e.path, e]));
  const now = new Map(after.map((e) => [e.path, e]));
  const paths = [...new Set([...old.keys(), ...now.keys()])].sort();
  for (const path of paths) {
    const a = old.get(path);
    const b = now.get(path);
    if (!b) return { path, change: 'removed' };
    if (!a) return { path, change: 'added' };
    if (a.kind !== b.kind || a.size !== b.size || a.digest !== b.digest) return { path, change: 'modified' };
  }
  return undefined;
}
