import { copyFile, lstat, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileChange } from '../../core/file-change.js';
import { fingerprintTree, type FingerprintEntry } from './mount-fingerprint.js';
import { isolatedGit } from './git/git-command.js';

/** At most this many bytes of a folder's files are copied before an attempt, so their diffs can be shown. */
export const BEFORE_COPY_LIMIT = 8 * 1024 * 1024;

/** A plain folder as it was before an attempt: its fingerprint, and copies of its files in `copies` (within the limit). */
export interface FolderSnapshot {
  entries: Map<string, FingerprintEntry>;
  copies: string;
  copied: Set<string>;
}

function isWaveFolder(path: string): boolean {
  return path === '.wave' || path.startsWith('.wave/');
}

async function filesOf(folder: string): Promise<Map<string, FingerprintEntry>> {
  const entries = (await fingerprintTree(folder)).filter((e) => (e.kind === 'file' || e.kind === 'symlink') && !isWaveFolder(e.path));
  return new Map(entries.map((e) => [e.path, e]));
}

/** Fingerprints `folder` and copies its files to `<scratch>/a/` while they fit in BEFORE_COPY_LIMIT. */
export async function snapshotFolder(folder: string, scratch: string): Promise<FolderSnapshot> {
  const entries = await filesOf(folder);
  const copies = join(scratch, 'a');
  const copied = new Set<string>();
  let budget = BEFORE_COPY_LIMIT;
  for (const entry of entries.values()) {
    if (entry.kind !== 'file' || entry.size > budget) continue;
    await mkdir(dirname(join(copies, entry.path)), { recursive: true });
    await copyFile(join(folder, entry.path), join(copies, entry.path));
    copied.add(entry.path);
    budget -= entry.size;
  }
  return { entries, copies, copied };
}

/** The files that differ between the snapshot and the folder now, in path order. */
export async function folderChanges(folder: string, before: FolderSnapshot): Promise<FileChange[]> {
  const after = await filesOf(folder);
  const paths = [...new Set([...before.entries.keys(), ...after.keys()])].sort();
  const changes: FileChange[] = [];
  for (const path of paths) {
    const a = before.entries.get(path);
    const b = after.get(path);
    if (a && b && a.kind === b.kind && a.size === b.size && a.digest === b.digest) continue;
    changes.push({ path, change: !a ? 'added' : !b ? 'deleted' : 'modified' });
  }
  return changes;
}

/** Lines added and removed in a unified diff of one file; undefined when git found it binary. */
function countLines(patch: string): { added: number; removed: number } | undefined {
  if (/^Binary files .* differ$/m.test(patch)) return undefined;
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of patch.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (inHunk && line.startsWith('+')) added++;
    else if (inHunk && line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/**
 * Diffs each changed file against its copy from before (`git diff --no-index`), filling in its line counts;
 * returns the unified diff. A file whose earlier content was not kept gets a note in place of its diff.
 */
export async function folderDiff(folder: string, before: FolderSnapshot, scratch: string, changes: FileChange[]): Promise<string> {
  const parts: string[] = [];
  // The scratch folder exists once a file was copied into it, before the attempt or here.
  let scratchMade = before.copied.size > 0;
  for (const change of changes) {
    const kept = change.change === 'added' || before.copied.has(change.path);
    const isFile = change.change === 'deleted' ? before.entries.get(change.path)?.kind === 'file' : (await lstat(join(folder, change.path))).isFile();
    if (!kept || !isFile) {
      parts.push(`diff --wave ${change.path}\n${change.change} (${!isFile ? 'not a regular file' : 'its earlier content was past the copy limit'}: no line diff)\n`);
      continue;
    }
    const left = change.change === 'added' ? '/dev/null' : `a/${change.path}`;
    let right = '/dev/null';
    if (change.change !== 'deleted') {
      right = `b/${change.path}`;
      scratchMade = true;
      await mkdir(dirname(join(scratch, right)), { recursive: true });
      await copyFile(join(folder, change.path), join(scratch, right));
    }
    const result = await isolatedGit(['diff', '--no-index', '--no-prefix', '--no-color', '--no-ext-diff', '--no-textconv', '--', left, right], { cwd: scratch });
    const count = countLines(result.stdout);
    if (count) Object.assign(change, count);
    else change.binary = true;
    parts.push(`${result.stdout}\n`);
  }
  if (scratchMade) await rm(scratch, { recursive: true, force: true });
  return parts.join('');
}
