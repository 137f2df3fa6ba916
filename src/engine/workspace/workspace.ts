import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Step } from '../../config/schema/pipeline-schema.js';
import { WaveError } from '../../core/errors/errors.js';
import { applyMounts, type ReadonlyMount } from './mounts.js';
import type { SubsetCopy } from './mount-subset.js';
import { ensureWorktree, removeRunWorktrees } from './worktree.js';
import type { WorktreeGit } from './git/worktree-git.js';
import { removeTree } from './workspace-files.js';
import { isSingleSegment } from './workspace-paths.js';

export { verifyReadonlyMounts, type ReadonlyMount } from './mounts.js';

/**
 * A step's `workspace` block, its templates already rendered. `root` is accepted as Wave accepts it; as in
 * Wave's executor, the workspace still lives under runtime.workspace_root.
 */
export type WorkspaceSpec = NonNullable<Step['workspace']>;

export interface PrepareWorkspaceOptions {
  /** Absolute; runtime.workspace_root resolved against the manifest's folder. */
  workspaceRoot: string;
  runId: string;
  stepId: string;
  /** The manifest's folder: mount sources and the worktree's repository are found from it. */
  projectRoot: string;
  spec?: WorkspaceSpec;
  /** Per mount: the entries of its resolved `subset_from` list (engine/workspace/mount-subset.ts), when it has one. */
  subsets?: ReadonlyArray<readonly unknown[] | undefined>;
  onSubset?: (index: number, copy: SubsetCopy) => void;
}

export interface PreparedWorkspace {
  /** Absolute path the step runs in. */
  path: string;
  kind: 'directory' | 'worktree';
  branch?: string;
  /** A worktree's git as Wave made it: its own git folder, the project repository, the snapshot repository. */
  git?: WorktreeGit;
  /** For verifyReadonlyMounts after the step. */
  readonlyMounts: ReadonlyMount[];
  /** Made for this step now (a folder always is; a worktree only by the first step of the run naming its branch): skills' init runs here. */
  created: boolean;
}

/** `<workspaceRoot>/<run-id>`, refusing ids that are not one folder name. */
export function runWorkspaceDir(workspaceRoot: string, runId: string): string {
  if (!isSingleSegment(runId)) throw new WaveError('invalid_argument', `\`${runId}\` is not a valid run id`);
  return join(resolve(workspaceRoot), runId);
}

/**
 * Makes the step's workspace: a fresh folder `<workspaceRoot>/<run-id>/<step-id>`, or
 * for `type: worktree` the run's git worktree of the branch (shared by the steps naming it); then copies the mounts.
 */
export async function prepareWorkspace(options: PrepareWorkspaceOptions): Promise<PreparedWorkspace> {
  const { spec = {}, stepId } = options;
  if (!isSingleSegment(stepId)) throw new WaveError('invalid_argument', `\`${stepId}\` is not a valid step id`);
  const runDir = runWorkspaceDir(options.workspaceRoot, options.runId);
  const projectRoot = resolve(options.projectRoot);
  let prepared: PreparedWorkspace;
  if (spec.type === 'worktree') {
    const branch = spec.branch ?? `wave/${options.runId}/${stepId}`;
    const { git, created } = await ensureWorktree({ projectRoot, runDir, branch, base: spec.base });
    prepared = { path: git.workTree, kind: 'worktree', branch, git, readonlyMounts: [], created };
  } else {
    const path = join(runDir, stepId);
    await makeFreshFolder(path);
    prepared = { path, kind: 'directory', readonlyMounts: [], created: true };
  }
  if (spec.mount?.length) {
    prepared.readonlyMounts = await applyMounts({
      workspace: prepared.path,
      projectRoot,
      mounts: spec.mount,
      exclude: [resolve(options.workspaceRoot)],
      ...(options.subsets ? { subsets: options.subsets } : {}),
      ...(options.onSubset ? { onSubset: options.onSubset } : {}),
    });
  }
  return prepared;
}

/** Makes `path` an empty folder: one already there (an earlier drive of the run left it) is removed and made again. */
async function makeFreshFolder(path: string): Promise<void> {
  // mkdir names the first folder it made; nothing named means the path was there already.
  if ((await mkdir(path, { recursive: true }).catch(() => undefined)) !== undefined) return;
  await removeTree(path);
  await mkdir(path, { recursive: true });
}

/** Removes a run's workspaces: its git worktrees (their branches are kept, holding the agents' commits) and folders. */
export async function removeRunWorkspaces(options: { workspaceRoot: string; runId: string; projectRoot: string }): Promise<void> {
  const runDir = runWorkspaceDir(options.workspaceRoot, options.runId);
  await removeRunWorktrees(resolve(options.projectRoot), runDir);
  await removeTree(runDir);
}
