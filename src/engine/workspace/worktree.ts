import { existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WaveError } from '../../core/errors/errors.js';
import { git, type GitResult } from './git/git-command.js';
import { hasStepGitDir, makeStepGitDir } from './git/step-gitdir.js';
import { returnStepBranchNow } from './git/branch-return.js';
import { inRepositoryQueue } from './git/repository-queue.js';
import { worktreeGit, type WorktreeGit } from './git/worktree-git.js';
import { seedSnapshotIndex } from './worktree-changes.js';
import { removeTree } from './workspace-files.js';
import { isInside } from '../../core/inside-path.js';
import { realpathOfNearest } from './workspace-paths.js';

export interface WorktreeRequest {
  projectRoot: string;
  /** `<workspaceRoot>/<run-id>`: the run's worktrees live in its `.worktrees` folder. */
  runDir: string;
  branch: string;
  /** Where a new branch starts; default HEAD. Ignored when the branch exists. */
  base?: string;
}

/** The top folder of the git repository holding `projectRoot`, or undefined when it is not in one. */
export async function findRepositoryRoot(projectRoot: string): Promise<string | undefined> {
  const isFolder = await stat(projectRoot).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isFolder) return undefined;
  const result = await git(['rev-parse', '--show-toplevel'], projectRoot);
  return result.code === 0 ? result.stdout.trim() : undefined;
}

/** What to do about a worktree step in a project outside any git repository. */
export const NOT_A_REPOSITORY_HINT =
  "Run `git init` in the project and commit there, or use a directory workspace: `workspace.type: worktree` checks out a branch of the project's repository.";

/** What to do about a new branch in a repository that has no commit to start it from. */
export const NO_COMMIT_HINT = 'Make a first commit, or set workspace.base to an existing branch or commit.';

/** Whether the repository has a commit at HEAD, which a new branch without a base starts from. */
export async function hasHeadCommit(repo: string): Promise<boolean> {
  return (await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], repo)).code === 0;
}

async function requireRepositoryRoot(projectRoot: string): Promise<string> {
  const repo = await findRepositoryRoot(projectRoot);
  if (repo) return repo;
  throw new WaveError('workspace_failed', `the project folder ${projectRoot} is not inside a git repository`, { hint: NOT_A_REPOSITORY_HINT });
}

interface RegisteredWorktree {
  path: string;
  branch?: string;
}

async function listWorktrees(repo: string): Promise<RegisteredWorktree[]> {
  const result = await git(['worktree', 'list', '--porcelain'], repo);
  if (result.code !== 0) throw gitFailure('git worktree list', result);
  const list: RegisteredWorktree[] = [];
  for (const line of result.stdout.split('\n')) {
    if (line.startsWith('worktree ')) list.push({ path: await realpathOfNearest(line.slice('worktree '.length)) });
    else if (line.startsWith('branch refs/heads/') && list.length > 0) list[list.length - 1]!.branch = line.slice('branch refs/heads/'.length);
  }
  return list;
}

function gitFailure(what: string, result: GitResult, hint?: string): WaveError {
  return new WaveError('workspace_failed', `${what} failed: ${result.stderr || `exit code ${result.code}`}`, {
    hint: hint ?? 'Check the branch and base names and the state of the repository (`git worktree list`).',
  });
}

// Steps of one run naming the same branch share its worktree, even when they ask at the same moment.
const worktreesInProgress = new Map<string, Promise<RunWorktree>>();

/** The run's worktree of a branch, and whether this process made it (a resumed run finds the one its first process made). */
export interface RunWorktree {
  git: WorktreeGit;
  created: boolean;
}

/**
 * Returns the run's worktree for `request.branch`, creating it with `git worktree add` the first time (the branch
 * made from `base` when it does not exist yet) and giving it a git folder of the step's own; later calls for the
 * branch share it.
 */
export function ensureWorktree(request: WorktreeRequest): Promise<RunWorktree> {
  const key = `${request.runDir}\0${request.branch}`;
  let pending = worktreesInProgress.get(key);
  if (!pending) {
    pending = createOrReuseWorktree(request);
    worktreesInProgress.set(key, pending);
    pending.catch(() => worktreesInProgress.delete(key));
  }
  return pending;
}

/** The repository's git folder shared by its worktrees (`.git` of the main one), absolute. */
async function commonGitDir(repo: string): Promise<string> {
  const result = await git(['rev-parse', '--path-format=absolute', '--git-common-dir'], repo);
  if (result.code !== 0) throw gitFailure('git rev-parse --git-common-dir', result);
  return result.stdout.trim();
}

/** The worktree's git as Wave keeps it: its own git folder made when missing, and the snapshot index started from its index. */
async function withStepGitDir(worktree: WorktreeGit): Promise<WorktreeGit> {
  if (hasStepGitDir(worktree)) return worktree;
  await makeStepGitDir(worktree);
  await seedSnapshotIndex(worktree, join(worktree.stepGitDir, 'index'));
  return worktree;
}

async function createOrReuseWorktree({ projectRoot, runDir, branch, base }: WorktreeRequest): Promise<RunWorktree> {
  const repo = await requireRepositoryRoot(projectRoot);
  const nameCheck = await git(['check-ref-format', '--branch', branch], repo);
  if (nameCheck.code !== 0) {
    throw new WaveError('workspace_failed', `\`${branch}\` is not a valid git branch name`, {
      hint: 'Use letters, digits, `-`, `_`, `.` and `/` in workspace.branch (no spaces, `..` or `~^:?*[`).',
    });
  }
  const worktree = worktreeGit(runDir, branch, await commonGitDir(repo));
  const path = worktree.workTree;
  return inRepositoryQueue(worktree.repository, async () => {
    const realPath = await realpathOfNearest(path);
    const registered = (await listWorktrees(repo)).find((w) => w.path === realPath);
    // A resumed run finds the worktree its first attempt made.
    if (registered && existsSync(path) && registered.branch === branch) return { git: await withStepGitDir(worktree), created: false };
    // Deleted rather than `git worktree remove`d: git never runs in a folder a step has written.
    await removeTree(path);
    await git(['worktree', 'prune'], repo);
    await removeTree(path);
    await mkdir(dirname(path), { recursive: true });
    const exists = (await git(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], repo)).code === 0;
    if (!exists && base === undefined && !(await hasHeadCommit(repo))) {
      throw new WaveError('workspace_failed', `cannot create branch \`${branch}\`: the repository at ${repo} has no commit yet`, { hint: NO_COMMIT_HINT });
    }
    const args = exists ? ['worktree', 'add', path, branch] : ['worktree', 'add', '-b', branch, path, base ?? 'HEAD'];
    const result = await git(args, repo);
    if (result.code !== 0) {
      throw gitFailure(
        `git worktree add for branch \`${branch}\``,
        result,
        exists ? 'A branch can be checked out in one worktree at a time: remove the other worktree (`git worktree remove <path>`) or name another branch.' : undefined,
      );
    }
    await rm(worktree.stepGitDir, { recursive: true, force: true });
    return { git: await withStepGitDir(worktree), created: true };
  });
}

/** Removes every worktree registered below `runDir` (its folder deleted, then `git worktree prune`); branches stay. */
export async function removeRunWorktrees(projectRoot: string, runDir: string): Promise<void> {
  for (const key of worktreesInProgress.keys()) if (key.startsWith(`${runDir}\0`)) worktreesInProgress.delete(key);
  // The run's worktrees all live in this folder: without it there is nothing to ask git about.
  if (!existsSync(join(runDir, '.worktrees'))) return;
  const repo = await findRepositoryRoot(projectRoot);
  if (!repo) return;
  const realRunDir = await realpathOfNearest(runDir);
  const repository = await commonGitDir(repo);
  await inRepositoryQueue(repository, async () => {
    for (const worktree of await listWorktrees(repo)) {
      if (!isInside(realRunDir, worktree.path, false)) continue;
      // Commits made since the last attempt ended (a step cut short) reach the branch before the folder goes.
      if (worktree.branch !== undefined) await returnStepBranchNow(worktreeGit(runDir, worktree.branch, repository)).catch(() => undefined);
      // Deleted rather than `git worktree remove`d: git never runs in a folder a step has written.
      await removeTree(worktree.path);
    }
    const pruned = await git(['worktree', 'prune'], repo);
    if (pruned.code !== 0) throw gitFailure('git worktree prune', pruned);
  });
}

/** The branches Wave named for run `runId`'s worktree steps (`wave/<run>/<step>`, the default), as ref names. */
export async function runBranches(projectRoot: string, runId: string): Promise<string[]> {
  const repo = await findRepositoryRoot(projectRoot);
  if (!repo) return [];
  const listed = await git(['for-each-ref', '--format=%(refname)', `refs/heads/wave/${runId}/`], repo);
  return listed.code === 0 ? listed.stdout.split('\n').filter(Boolean) : [];
}

/** Deletes the given branch refs of the project's repository (its worktrees already gone). */
export async function deleteBranches(projectRoot: string, refs: readonly string[]): Promise<void> {
  const repo = await findRepositoryRoot(projectRoot);
  if (!repo) return;
  await inRepositoryQueue(repo, async () => {
    for (const ref of refs) {
      const deleted = await git(['update-ref', '-d', ref], repo);
      if (deleted.code !== 0) throw gitFailure(`deleting ${ref}`, deleted);
    }
  });
}
