import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileChange } from '../../core/file-change.js';
import { WaveError } from '../../core/errors/errors.js';
import { isolatedGit, type GitResult, type IsolatedPlace } from './git/git-command.js';
import type { WorktreeGit } from './git/worktree-git.js';

/** Commands for which exit code 1 is an answer: diff found differences; add skipped what it could not index (a nested repository with no commit). */
const ONE_IS_AN_ANSWER = new Set(['git diff', 'git add']);

function checked(what: string, result: GitResult): string {
  if (result.code === 0 || (ONE_IS_AN_ANSWER.has(what) && result.code === 1)) return result.stdout;
  throw new WaveError('workspace_failed', `${what} failed: ${result.stderr || `exit code ${result.code}`}`, {
    hint: 'Check the state of the worktree with `git status` in it.',
  });
}

/**
 * Makes the run's snapshot repository once: bare, empty of hooks (no template), reading the project's objects, so a
 * snapshot of a worktree writes only the blobs the project lacks, and into Wave's folder rather than the project's.
 */
async function ensureSnapshotRepository(worktree: WorktreeGit): Promise<void> {
  const dir = worktree.snapshotGitDir;
  if (existsSync(join(dir, 'objects', 'info', 'alternates'))) return;
  await mkdir(dir, { recursive: true });
  const format = await isolatedGit(['rev-parse', '--show-object-format'], { gitDir: worktree.repository, cwd: dir });
  const objectFormat = format.code === 0 ? format.stdout.trim() : 'sha1';
  checked('git init', await isolatedGit(['init', '--quiet', '--bare', '--template=', `--object-format=${objectFormat}`, dir], { cwd: dirname(dir) }));
  await mkdir(join(dir, 'objects', 'info'), { recursive: true });
  await writeFile(join(dir, 'objects', 'info', 'alternates'), `${join(worktree.repository, 'objects')}\n`);
}

/** Starts the worktree's snapshot index from `index` (the one git wrote when it checked the worktree out). */
export async function seedSnapshotIndex(worktree: WorktreeGit, index: string): Promise<void> {
  await ensureSnapshotRepository(worktree);
  await mkdir(dirname(worktree.snapshotIndex), { recursive: true });
  await copyFile(index, worktree.snapshotIndex).catch(() => undefined);
}

/**
 * Records the worktree's files as they are now (tracked, and untracked ones not ignored; `.wave/` left out) as a tree
 * of the snapshot repository; returns the tree's id. git runs isolated (git-command.ts): nothing the step wrote — a
 * `.git` file, hooks, config, attributes naming filters — decides what it runs.
 */
export async function snapshotWorktree(worktree: WorktreeGit, scratchIndex: string): Promise<string> {
  await ensureSnapshotRepository(worktree);
  // Starting from the last snapshot's index lets git skip hashing files whose stat has not changed.
  await copyFile(worktree.snapshotIndex, scratchIndex).catch(() => undefined);
  const place: IsolatedPlace = { gitDir: worktree.snapshotGitDir, workTree: worktree.workTree, indexFile: scratchIndex, cwd: worktree.workTree };
  try {
    checked('git add', await isolatedGit(['add', '--all', '--ignore-errors'], place));
    // Not as an exclude pathspec of the add: git refuses that when `.wave` is ignored.
    checked('git rm', await isolatedGit(['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', '.wave'], place));
    const tree = checked('git write-tree', await isolatedGit(['write-tree'], place)).trim();
    await mkdir(dirname(worktree.snapshotIndex), { recursive: true });
    await copyFile(scratchIndex, worktree.snapshotIndex);
    return tree;
  } finally {
    await rm(scratchIndex, { force: true });
  }
}

const CHANGE_OF_STATUS: Record<string, FileChange['change']> = { A: 'added', M: 'modified', D: 'deleted', T: 'modified' };

/** git diff of two snapshot trees in the snapshot repository: no work tree, so no attributes a step wrote apply. */
function diffTrees(worktree: WorktreeGit, args: string[]): Promise<GitResult> {
  return isolatedGit(['diff', '--no-renames', '--no-ext-diff', '--no-textconv', ...args], { gitDir: worktree.snapshotGitDir, cwd: worktree.snapshotGitDir });
}

/** The files that differ between two snapshots, with their line counts (none for a binary file). */
export async function worktreeChanges(worktree: WorktreeGit, before: string, after: string): Promise<FileChange[]> {
  const status = checked('git diff', await diffTrees(worktree, ['--name-status', '-z', before, after])).split('\0');
  const numstat = checked('git diff', await diffTrees(worktree, ['--numstat', '-z', before, after])).split('\0');
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
export async function worktreeDiff(worktree: WorktreeGit, before: string, after: string, paths: readonly string[]): Promise<string> {
  if (!paths.length) return '';
  return checked('git diff', await diffTrees(worktree, ['--no-color', before, after, '--', ...paths.map((p) => `:(literal)${p}`)]));
}
