import { join } from 'node:path';
import { branchSlug } from './branch-slug.js';

/**
 * What Wave knows of a worktree workspace's git, decided when it made the worktree and never read back from the
 * workspace, whose `.git` file a step can rewrite.
 */
export interface WorktreeGit {
  /** The workspace: the worktree's files. */
  workTree: string;
  branch: string;
  /** The project repository's git folder (its common dir): read-only to a sandboxed step. */
  repository: string;
  /** The step's own git folder, which the workspace's `.git` names: its HEAD, index, branch and new objects. */
  stepGitDir: string;
  /** The run's snapshot repository: Wave's own, reads the project's objects, holds the snapshots' blobs. */
  snapshotGitDir: string;
  /** The worktree's index in the snapshot repository, kept between snapshots for git's stat cache. */
  snapshotIndex: string;
}

/** The git folders of the run's worktree for `branch`, beside its `.worktrees` folder (never inside a workspace). */
export function worktreeGit(runDir: string, branch: string, repository: string): WorktreeGit {
  const slug = branchSlug(branch);
  const snapshotGitDir = join(runDir, '.git-snapshots');
  return {
    workTree: join(runDir, '.worktrees', slug),
    branch,
    repository,
    stepGitDir: join(runDir, '.gitdirs', slug),
    snapshotGitDir,
    snapshotIndex: join(snapshotGitDir, 'worktree-indexes', slug),
  };
}
