import { copyFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FileChange } from '../core/file-change.js';
import { WaveError } from '../errors.js';
import { git, type GitResult } from './git/git-command.js';

function checked(what: string, result: GitResult): string {
  if (result.code === 0 || (what === 'git diff' && result.code === 1)) return result.stdout;
  throw new WaveError('workspace_failed', `${what} failed: ${result.stderr || `exit code ${result.code}`}`, {
    hint: 'Check the state of the worktree with `git status` in it.',
  });
}

/**
 * Records the worktree's files as they are now (tracked, and untracked ones not ignored; `.wave/` left out) as a
 * git tree, through a scratch index so the worktree's own index is untouched; returns the tree's id.
 */
export async function snapshotWorktree(worktree: string, scratchIndex: string): Promise<string> {
  const index = resolve(worktree, checked('git rev-parse', await git(['rev-parse', '--git-path', 'index'], worktree)).trim());
  // Starting from the worktree's index lets git skip hashing files whose stat has not changed.
  await copyFile(index, scratchIndex).catch(() => undefined);
  const env = { GIT_INDEX_FILE: scratchIndex };
  try {
    checked('git add', await git(['add', '--all'], worktree, env));
    // Not as an exclude pathspec of the add: git refuses that when `.wave` is ignored.
    checked('git rm', await git(['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', '.wave'], worktree, env));
    return checked('git write-tree', await git(['write-tree'], worktree, env)).trim();
  } finally {
    await rm(scratchIndex, { force: true });
  }
}

const CHANGE_OF_STATUS: Record<string, FileChange['change']> = { A: 'added', M: 'modified', D: 'deleted', T: 'modified' };

/** The files that differ between two snapshots, with their line counts (none for a binary file). */
export async function worktreeChanges(worktree: string, before: string, after: string): Promise<FileChange[]> {
  const status = checked('git diff', await git(['diff', '--no-renames', '--name-status', '-z', before, after], worktree)).split('\0');
  const numstat = checked('git diff', await git(['diff', '--no-renames', '--numstat', '-z', before, after], worktree)).split('\0');
  const lines = new Map<string, { added: string; removed: string }>();
  for (const row of numstat) {
    const [added, removed, path] = row.split('\t');
    if (path !== undefined) lines.set(path, { added: added!, removed: removed! });
  }
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < status.length; i += 2) {
    const path = status[i + 1]!;
    const count = lines.get(path);
    const binary = !count || count.added === '-';
    const change: FileChange = { path, change: CHANGE_OF_STATUS[status[i]!] ?? 'modified' };
    changes.push(binary ? { ...change, binary: true } : { ...change, added: Number(count.added), removed: Number(count.removed) });
  }
  return changes;
}

/** The unified diff between two snapshots, of `paths` only. */
export async function worktreeDiff(worktree: string, before: string, after: string, paths: readonly string[]): Promise<string> {
  if (!paths.length) return '';
  return checked('git diff', await git(['diff', '--no-renames', '--no-color', '--no-ext-diff', before, after, '--', ...paths.map((p) => `:(literal)${p}`)], worktree));
}
