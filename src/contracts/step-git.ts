/** A file of a commit: its path and the id of its content. */
export interface CommitFile {
  path: string;
  blob: string;
}

/**
 * A worktree step's git as a contract reads it: through Wave's own repositories (the project's and the run's
 * snapshot repository), never through the workspace's `.git`, which the step can rewrite. Each method throws an Error
 * carrying git's message when git cannot answer.
 */
export interface StepGit {
  /** `git diff HEAD -- <pathspecs>`: the workspace's files (untracked ones too, `.wave/` left out) against the step's branch commit. */
  diffFromHead(pathspecs: readonly string[]): Promise<string>;
  /** The commit `ref` names in the project repository, `HEAD` (and `HEAD~1`, `HEAD^`…) meaning the step's branch. */
  commitOf(ref: string): Promise<string>;
  /** Every file of a commit. */
  filesOf(commit: string): Promise<CommitFile[]>;
  /** The text of a file's content. */
  blobText(blob: string): Promise<string>;
}

/** Why a test-declaration contract cannot look at a plain folder workspace. */
export const NOT_A_WORKTREE = "the step's workspace is a plain folder, not a git worktree of the project, and git is never run in a folder a step controls";

/** What to do about a test-declaration contract on a plain folder workspace. */
export const NOT_A_WORKTREE_HINT = "Set `workspace: { type: worktree, branch: <name> }` on the step, so its changes are read through the project's repository.";
