/** The unified diff of an attempt's changes, in its attempt folder (`wave diff` prints it). */
export const CHANGES_DIFF_FILE = 'changes.diff';

/** One file a step's attempt created, modified or deleted in its workspace. */
export interface FileChange {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /** Lines added and removed; absent for a binary file (or one whose earlier content was not kept). */
  added?: number;
  removed?: number;
  binary?: boolean;
}
