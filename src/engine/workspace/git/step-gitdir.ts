import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { WaveError } from '../../../core/errors/errors.js';
import type { Bind } from '../../../sandbox/host-paths.js';
import { realpathOfNearest } from '../workspace-paths.js';
import { git } from './git-command.js';
import type { WorktreeGit } from './worktree-git.js';

/** The project repository's folder for the worktree at `workTree` (`<repository>/worktrees/<name>`), found from git's own records. */
async function worktreeAdminDir(repository: string, workTree: string): Promise<string | undefined> {
  const names = await readdir(join(repository, 'worktrees')).catch(() => [] as string[]);
  const dotGit = await realpathOfNearest(join(workTree, '.git'));
  for (const name of names) {
    const pointer = await readFile(join(repository, 'worktrees', name, 'gitdir'), 'utf8').catch(() => '');
    if (pointer.trim() && (await realpathOfNearest(resolve(pointer.trim()))) === dotGit) return join(repository, 'worktrees', name);
  }
  return undefined;
}

/** The project's refs as a packed-refs file, so the step sees its branches and tags (its own branch among them). */
async function packedRefs(repository: string): Promise<string> {
  const listed = await git(['--git-dir', repository, 'for-each-ref', '--format=%(objectname) %(refname)'], repository);
  if (listed.code !== 0) throw new WaveError('workspace_failed', `git for-each-ref failed: ${listed.stderr}`, { hint: 'Check the repository with `git fsck`.' });
  // git wants every line ended; execa drops the last newline.
  return listed.stdout ? `${listed.stdout}\n` : '';
}

/**
 * Gives the worktree a git folder of the step's own and points its `.git` there: HEAD on the step's branch, a copy
 * of the project's config, refs and index, its objects read from the project's through `alternates`. Inside a
 * sandbox this is the only git folder the step can write: the project's repository is read-only there, and Wave
 * takes back only the step's branch and the objects it needs (branch-return.ts).
 */
export async function makeStepGitDir(worktree: WorktreeGit): Promise<void> {
  const { repository, stepGitDir: dir, branch } = worktree;
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'refs', 'heads'), { recursive: true });
  await mkdir(join(dir, 'refs', 'tags'), { recursive: true });
  await mkdir(join(dir, 'objects', 'info'), { recursive: true });
  await mkdir(join(dir, 'info'), { recursive: true });
  await writeFile(join(dir, 'HEAD'), `ref: refs/heads/${branch}\n`);
  await writeFile(join(dir, 'objects', 'info', 'alternates'), `${join(repository, 'objects')}\n`);
  await writeFile(join(dir, 'packed-refs'), await packedRefs(repository));
  await copyFile(join(repository, 'config'), join(dir, 'config'));
  if (existsSync(join(repository, 'info', 'exclude'))) await copyFile(join(repository, 'info', 'exclude'), join(dir, 'info', 'exclude'));
  // The project's hooks run inside as before, and stay read-only there.
  if (existsSync(join(repository, 'hooks'))) await symlink(join(repository, 'hooks'), join(dir, 'hooks'));
  const admin = await worktreeAdminDir(repository, worktree.workTree);
  if (admin && existsSync(join(admin, 'index'))) await copyFile(join(admin, 'index'), join(dir, 'index'));
  await writeFile(join(worktree.workTree, '.git'), `gitdir: ${dir}\n`);
}

/** Whether the worktree's own git folder is there (a run resumed from before it existed has none). */
export function hasStepGitDir(worktree: WorktreeGit): boolean {
  return existsSync(join(worktree.stepGitDir, 'HEAD'));
}

/** What a sandboxed step of the worktree sees of git: the project's repository read-only, its own git folder (but its config) writable. */
export function stepGitBinds(worktree: WorktreeGit): Bind[] {
  return [
    { path: worktree.repository, writable: false },
    { path: worktree.stepGitDir, writable: true },
    { path: join(worktree.stepGitDir, 'config'), writable: false },
  ];
}
