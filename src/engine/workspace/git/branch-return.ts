import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WaveError } from '../../../core/errors/errors.js';
import { walkTree } from '../workspace-files.js';
import { git, type GitFiles, type GitResult } from './git-command.js';
import type { WorktreeGit } from './worktree-git.js';
import { inRepositoryQueue } from './repository-queue.js';

/** A commit id, SHA-1 or SHA-256. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The largest ref file read from a step's git folder (a packed-refs of many refs). */
const REF_FILE_LIMIT = 16 * 1024 * 1024;

/** A small regular file below `dir` read as data: no link followed on the way, never blocking on a fifo; undefined otherwise. */
async function readStepFile(dir: string, relative: string): Promise<string | undefined> {
  let folder = dir;
  for (const part of relative.split('/').slice(0, -1)) {
    folder = join(folder, part);
    if (!(await lstat(folder).catch(() => undefined))?.isDirectory()) return undefined;
  }
  const handle = await open(join(dir, relative), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const stats = await handle.stat();
    return stats.isFile() && stats.size <= REF_FILE_LIMIT ? await handle.readFile('utf8') : undefined;
  } finally {
    await handle.close();
  }
}

/** The commit the step's branch names in its git folder; undefined when it names none (deleted, symbolic, not an id). */
export async function stepBranchCommit(worktree: WorktreeGit): Promise<string | undefined> {
  const ref = `refs/heads/${worktree.branch}`;
  const loose = await readStepFile(worktree.stepGitDir, ref);
  if (loose !== undefined) return OBJECT_ID.test(loose.trim()) ? loose.trim() : undefined;
  const packed = (await readStepFile(worktree.stepGitDir, 'packed-refs')) ?? '';
  const id = packed
    .split('\n')
    .find((line) => line.endsWith(` ${ref}`) && line.length === line.indexOf(' ') + 1 + ref.length)
    ?.split(' ')[0];
  return id !== undefined && OBJECT_ID.test(id) ? id : undefined;
}

/** Copies the regular files of the step's object folder (loose objects and packs; never its `info/`, never through a link). */
async function copyStepObjects(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await walkTree(from).catch(() => [])) {
    if (!entry.stats.isFile() || entry.path.startsWith('info/')) continue;
    await mkdir(dirname(join(to, entry.path)), { recursive: true });
    await copyFile(entry.absolute, join(to, entry.path));
  }
}

function returnFailure(worktree: WorktreeGit, what: string, result: GitResult): WaveError {
  return new WaveError(
    'workspace_failed',
    `the commits on branch \`${worktree.branch}\` could not be taken into the repository: ${what} (${result.stderr || `exit code ${result.code}`})`,
    {
      hint: `The step's worktree keeps them until the run's workspaces are removed: look at \`git -C ${worktree.workTree} log\`.`,
    },
  );
}

/**
 * Takes the step's branch back into the project repository after an attempt: the objects its commit needs, copied
 * out of the step's git folder and re-hashed by `git index-pack --strict` (an object whose content does not match
 * its name is refused, so an existing or future object cannot be replaced), then the branch ref, and nothing else:
 * refs, tags and objects the step changed in its own folder stay there.
 */
export function returnStepBranch(worktree: WorktreeGit): Promise<void> {
  // Never beside a `git worktree add`, whose HEAD names no commit yet while `--all` below would read it.
  return inRepositoryQueue(worktree.repository, () => returnStepBranchNow(worktree));
}

/** returnStepBranch for a caller that holds the repository's queue already. */
export async function returnStepBranchNow(worktree: WorktreeGit): Promise<void> {
  const commit = await stepBranchCommit(worktree);
  if (commit === undefined) return;
  const { repository, branch } = worktree;
  const inRepository = (args: string[], env: Record<string, string> = {}, files: GitFiles = {}) => git(['--git-dir', repository, ...args], repository, env, files);
  const current = (await inRepository(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).stdout.trim();
  if (current === commit) return;
  await mkdir(worktree.snapshotGitDir, { recursive: true });
  const scratch = await mkdtemp(join(worktree.snapshotGitDir, 'incoming-'));
  try {
    await copyStepObjects(join(worktree.stepGitDir, 'objects'), join(scratch, 'objects'));
    const incoming = { GIT_ALTERNATE_OBJECT_DIRECTORIES: join(scratch, 'objects') };
    const list = join(scratch, 'objects.list');
    const listed = await inRepository(['rev-list', '--objects', commit, '--not', '--all'], incoming, { output: list });
    if (listed.code !== 0) throw returnFailure(worktree, `commit ${commit} or an object it needs is missing`, listed);
    if ((await readFile(list, 'utf8')).trim()) {
      const pack = join(scratch, 'objects.pack');
      const packed = await inRepository(['pack-objects', '--stdout', '-q'], incoming, { input: list, output: pack });
      if (packed.code !== 0) throw returnFailure(worktree, 'its objects could not be packed', packed);
      const indexed = await inRepository(['index-pack', '--stdin', '--strict'], {}, { input: pack });
      if (indexed.code !== 0) throw returnFailure(worktree, 'its objects are broken', indexed);
    }
    const complete = await inRepository(['rev-list', '--objects', '--verify-objects', '--quiet', commit, '--not', '--all']);
    if (complete.code !== 0) throw returnFailure(worktree, `commit ${commit} names objects that are missing or do not match their ids`, complete);
    const updated = await inRepository(['update-ref', '-m', 'wave: the step committed on its worktree', `refs/heads/${branch}`, commit, ...(current ? [current] : [])]);
    if (updated.code !== 0) throw returnFailure(worktree, 'the branch could not be moved', updated);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
