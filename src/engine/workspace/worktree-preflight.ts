import { WaveError, type SourceLocation } from '../../core/errors/errors.js';
import type { Step } from '../../config/schema/pipeline-schema.js';
import { findRepositoryRoot, hasHeadCommit, NO_COMMIT_HINT, NOT_A_REPOSITORY_HINT } from './worktree.js';

/** The repository of each project folder asked about in this process: `wave validate` asks once for all its pipelines. */
const repositories = new Map<string, Promise<{ repo?: string; headCommit: boolean }>>();

function repositoryOf(projectRoot: string): Promise<{ repo?: string; headCommit: boolean }> {
  let known = repositories.get(projectRoot);
  if (!known) {
    known = findRepositoryRoot(projectRoot).then(async (repo) => (repo ? { repo, headCommit: await hasHeadCommit(repo) } : { headCommit: false }));
    repositories.set(projectRoot, known);
  }
  return known;
}

const named = (ids: readonly string[]) => `${ids.length === 1 ? 'step' : 'steps'} ${ids.map((id) => `\`${id}\``).join(', ')}`;
const wouldFail = (ids: readonly string[]) => (ids.length === 1 ? 'so it would fail' : 'so they would fail');

/**
 * What would fail the pipeline's worktree steps before they start, as warnings for `wave validate` and before a run:
 * a project folder outside any git repository, or a repository with no commit for a new branch without a base.
 * Each is said once, at the first step it concerns, with the code the steps fail with when they run.
 */
export async function worktreeWarnings(steps: readonly Step[], locate: (path: readonly PropertyKey[]) => SourceLocation, projectRoot: string): Promise<WaveError[]> {
  const worktrees = steps.flatMap((step, index) => (step.workspace?.type === 'worktree' ? [{ step, index }] : []));
  if (worktrees.length === 0) return [];
  const at = (index: number) => locate(['steps', index, 'workspace', 'type']);
  try {
    const { repo, headCommit } = await repositoryOf(projectRoot);
    if (!repo) {
      const ids = worktrees.map((w) => w.step.id);
      const message = `${named(ids)}: workspace.type worktree needs a git repository, but the project folder ${projectRoot} is not inside one, ${wouldFail(ids)}`;
      return [new WaveError('workspace_failed', message, { location: at(worktrees[0]!.index), hint: NOT_A_REPOSITORY_HINT })];
    }
    const fromHead = worktrees.filter((w) => w.step.workspace?.base === undefined);
    if (headCommit || fromHead.length === 0) return [];
    const ids = fromHead.map((w) => w.step.id);
    const message = `${named(ids)}: a new worktree branch starts from HEAD, but the repository at ${repo} has no commit yet, ${wouldFail(ids)}`;
    return [new WaveError('workspace_failed', message, { location: at(fromHead[0]!.index), hint: NO_COMMIT_HINT })];
  } catch (error) {
    // git itself could not start: the steps will fail the same way.
    if (error instanceof WaveError) return [new WaveError(error.code, error.message, { location: at(worktrees[0]!.index), ...(error.hint ? { hint: error.hint } : {}) })];
    throw error;
  }
}
