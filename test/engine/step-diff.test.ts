import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { returnStepBranch } from '../../src/engine/workspace/git/branch-return.js';
import { stepBranchDiff } from '../../src/engine/workspace/git/step-diff.js';
import { prepareWorkspace } from '../../src/engine/workspace/workspace.js';
import { git, projectPerTest } from '../fixtures/workspace/helpers.js';

let project: string;
let workspaceRoot: string;
projectPerTest((paths) => ({ project, workspaceRoot } = paths), { git: true });

/** A step's worktree on a new branch, with one commit of the step's and one change left uncommitted, taken back as after an attempt. */
async function workedStep() {
  const ws = await prepareWorkspace({ workspaceRoot, runId: 'run-1', stepId: 'build', projectRoot: project, spec: { type: 'worktree', branch: 'feature/review' } });
  const worktree = ws.git!;
  await writeFile(join(ws.path, 'src', 'app.txt'), 'app source, reviewed\n');
  await git(ws.path, 'commit', '-qam', 'the step changed the app');
  await writeFile(join(ws.path, 'notes.txt'), 'not committed\n');
  await returnStepBranch(worktree);
  return worktree;
}

describe('the git diff a review is shown', () => {
  it("is the step's branch against the first of origin/main, origin/master, main, master the repository has", async () => {
    const worktree = await workedStep();
    const { base, diff } = await stepBranchDiff(worktree, undefined);
    expect(base).toBe('main');
    expect(diff).toContain('-app source\n+app source, reviewed');
    // Wave's `git diff <base>..HEAD`: commits only, not what the step left uncommitted.
    expect(diff).not.toContain('notes.txt');
  });

  it('is taken against diff_base when the contract names one; a base equal to the branch has no changes', async () => {
    const worktree = await workedStep();
    expect(await stepBranchDiff(worktree, 'feature/review')).toEqual({ base: 'feature/review', diff: '' });
    await expect(stepBranchDiff(worktree, 'no-such-ref')).rejects.toThrow('diff_base `no-such-ref` names no commit of the repository');
    // A base that would be read as an option is a ref name like any other.
    await expect(stepBranchDiff(worktree, '--output=/tmp/x')).rejects.toThrow('names no commit');
  });

  it("is the worktree's files against its last commit (`git diff HEAD`, untracked files included) when no default base exists", async () => {
    await git(project, 'branch', '-m', 'main', 'trunk');
    const worktree = await workedStep();
    const { base, diff } = await stepBranchDiff(worktree, undefined);
    expect(base).toBe('HEAD');
    expect(diff).toContain('+not committed');
    expect(diff).not.toContain('app source, reviewed');
  });
});
