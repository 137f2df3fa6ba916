import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { snapshotWorktree } from '../worktree-changes.js';
import { isolatedGit } from './git-command.js';
import type { WorktreeGit } from './worktree-git.js';

/** The refs a review's diff is taken against when its contract names none, in Wave's order. */
const DEFAULT_BASES = ['origin/main', 'origin/master', 'main', 'master'];

/** Flags that keep a diff from running any driver a repository or its files name. */
const PLAIN_DIFF = ['diff', '--no-color', '--no-ext-diff', '--no-textconv'];

/** The commit `ref` names in the project repository; undefined when it names none. */
export async function commitOf(worktree: WorktreeGit, ref: string): Promise<string | undefined> {
  const result = await isolatedGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { gitDir: worktree.repository, cwd: worktree.repository });
  return result.code === 0 ? result.stdout.trim() : undefined;
}

/** A diff's text, or an error saying what git said. */
function diffText(result: { code: number; stdout: string; stderr: string }): string {
  if (result.code === 0 || result.code === 1) return result.stdout;
  throw new Error(`git diff failed: ${result.stderr || `exit code ${result.code}`}`);
}

/**
 * The step's changes as Wave's review sees them (`git diff <base>..HEAD`): its branch, taken back into the project
 * repository after the attempt, against `base` (else the first of origin/main, origin/master, main, master there).
 * Without any base, the worktree's files against its branch's commit (`git diff HEAD`), read through Wave's snapshot
 * repository. git runs in Wave's or the project's repository, never in the workspace, whose `.git` the step can rewrite.
 */
export async function stepBranchDiff(worktree: WorktreeGit, base: string | undefined): Promise<{ base: string; diff: string }> {
  const head = await branchCommit(worktree);
  if (base !== undefined) {
    const from = await commitOf(worktree, base);
    if (from === undefined) throw new Error(`diff_base \`${base}\` names no commit of the repository`);
    return { base, diff: await commitDiff(worktree, from, head) };
  }
  for (const candidate of DEFAULT_BASES) {
    const from = await commitOf(worktree, candidate);
    if (from !== undefined) return { base: candidate, diff: await commitDiff(worktree, from, head) };
  }
  return { base: 'HEAD', diff: await worktreeDiffFrom(worktree, head) };
}

/** The commit of the step's branch in the project repository (taken back there after each attempt). */
export async function branchCommit(worktree: WorktreeGit): Promise<string> {
  const head = await commitOf(worktree, `refs/heads/${worktree.branch}`);
  if (head === undefined) throw new Error(`the step's branch \`${worktree.branch}\` has no commit`);
  return head;
}

function commitDiff(worktree: WorktreeGit, from: string, to: string): Promise<string> {
  return isolatedGit([...PLAIN_DIFF, from, to], { gitDir: worktree.repository, cwd: worktree.repository }).then(diffText);
}

/** The worktree's files (tracked and untracked, `.wave/` left out) against commit `head`, of `pathspecs` only when given. */
export async function worktreeDiffFrom(worktree: WorktreeGit, head: string, pathspecs: readonly string[] = []): Promise<string> {
  await mkdir(worktree.snapshotGitDir, { recursive: true });
  const scratch = await mkdtemp(join(worktree.snapshotGitDir, 'review-'));
  try {
    const tree = await snapshotWorktree(worktree, join(scratch, 'index'));
    const only = pathspecs.length ? ['--', ...pathspecs] : [];
    return diffText(await isolatedGit([...PLAIN_DIFF, head, tree, ...only], { gitDir: worktree.snapshotGitDir, cwd: worktree.snapshotGitDir }));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
