import { existsSync } from 'node:fs';
import { readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { prepareWorkspace, removeRunWorkspaces, type WorkspaceSpec } from '../../src/engine/workspace/workspace.js';
import { branchSlug } from '../../src/engine/workspace/git/branch-slug.js';
import { git, makeProject, registeredWorktrees, writeTree, projectPerTest } from '../fixtures/workspace/helpers.js';

let dir: string;
let project: string;
let workspaceRoot: string;
projectPerTest((paths) => ({ dir, project, workspaceRoot } = paths), { git: true });

function prepare(stepId: string, spec: WorkspaceSpec, runId = 'run-1') {
  return prepareWorkspace({ workspaceRoot, runId, stepId, projectRoot: project, spec });
}

async function errorOf(promise: Promise<unknown>): Promise<WaveError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WaveError);
  return error as WaveError;
}

describe('worktree workspaces', () => {
  it("checks out a new branch from HEAD in the run's .worktrees folder", async () => {
    const ws = await prepare('implement', { type: 'worktree', branch: 'feature/login' });
    expect(ws.kind).toBe('worktree');
    expect(ws.branch).toBe('feature/login');
    expect(ws.path).toBe(join(workspaceRoot, 'run-1', '.worktrees', branchSlug('feature/login')));
    expect(await git(ws.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('feature/login');
    expect(await git(ws.path, 'rev-parse', 'HEAD')).toBe(await git(project, 'rev-parse', 'main'));
    expect(await readFile(join(ws.path, 'src', 'app.txt'), 'utf8')).toBe('app source\n');
  });

  it('starts a new branch from the given base', async () => {
    const first = await git(project, 'rev-parse', 'HEAD');
    await writeFile(join(project, 'later.txt'), 'later');
    await git(project, 'add', 'later.txt');
    await git(project, 'commit', '-q', '-m', 'later');
    const ws = await prepare('implement', { type: 'worktree', branch: 'from-first', base: first });
    expect(await git(ws.path, 'rev-parse', 'HEAD')).toBe(first);
    expect(existsSync(join(ws.path, 'later.txt'))).toBe(false);
  });

  it('checks out a branch that already exists, with its commits', async () => {
    await git(project, 'checkout', '-q', '-b', 'existing');
    await writeFile(join(project, 'only-on-branch.txt'), 'branch work');
    await git(project, 'add', 'only-on-branch.txt');
    await git(project, 'commit', '-q', '-m', 'branch work');
    await git(project, 'checkout', '-q', 'main');
    const ws = await prepare('fix', { type: 'worktree', branch: 'existing', base: 'main' });
    expect(await readFile(join(ws.path, 'only-on-branch.txt'), 'utf8')).toBe('branch work');
    expect(await git(ws.path, 'rev-parse', 'HEAD')).toBe(await git(project, 'rev-parse', 'existing'));
  });

  it('gives steps naming the same branch one worktree, one after the other', async () => {
    const a = await prepare('implement', { type: 'worktree', branch: 'shared' });
    await writeFile(join(a.path, 'from-implement.txt'), 'work');
    const b = await prepare('test', { type: 'worktree', branch: 'shared' });
    expect(b.path).toBe(a.path);
    expect(await readFile(join(b.path, 'from-implement.txt'), 'utf8')).toBe('work');
  });

  it('gives steps naming the same branch one worktree when prepared at the same moment', async () => {
    const spec: WorkspaceSpec = { type: 'worktree', branch: 'together' };
    const prepared = await Promise.all(['a', 'b', 'c', 'd'].map((step) => prepare(step, spec)));
    expect(new Set(prepared.map((w) => w.path)).size).toBe(1);
    const other = await Promise.all([prepare('e', { type: 'worktree', branch: 'one' }), prepare('f', { type: 'worktree', branch: 'two' })]);
    expect(other[0].path).not.toBe(other[1].path);
    expect(await registeredWorktrees(project)).toHaveLength(4);
  });

  it('gives two branches whose names slug alike two folders', async () => {
    const a = await prepare('a', { type: 'worktree', branch: 'x/y' });
    const b = await prepare('b', { type: 'worktree', branch: 'x-y' });
    expect(a.path).not.toBe(b.path);
    expect(await git(a.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('x/y');
    expect(await git(b.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('x-y');
  });

  it("removes the run's worktrees and folders but keeps the branch and its commits", async () => {
    const ws = await prepare('implement', { type: 'worktree', branch: 'keep-me' });
    await writeFile(join(ws.path, 'result.txt'), 'agent work');
    await git(ws.path, 'add', 'result.txt');
    await git(ws.path, 'commit', '-q', '-m', 'agent work');
    await writeFile(join(ws.path, 'uncommitted.txt'), 'dirty');
    const plain = await prepare('report', {});
    const otherRun = await prepare('implement', { type: 'worktree', branch: 'other-run' }, 'run-2');

    await removeRunWorkspaces({ workspaceRoot, runId: 'run-1', projectRoot: project });

    const remaining = await registeredWorktrees(project);
    expect(remaining).toEqual([await realpath(project), await realpath(otherRun.path)]);
    expect(existsSync(join(workspaceRoot, 'run-1'))).toBe(false);
    expect(existsSync(plain.path)).toBe(false);
    expect(await git(project, 'show', 'keep-me:result.txt')).toBe('agent work');
  });

  it("makes the worktree again for a branch after the run's workspaces were removed", async () => {
    await prepare('implement', { type: 'worktree', branch: 'again' });
    await removeRunWorkspaces({ workspaceRoot, runId: 'run-1', projectRoot: project });
    const ws = await prepare('implement', { type: 'worktree', branch: 'again' });
    expect(await git(ws.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('again');
  });

  it('names a default branch after the run and step', async () => {
    const ws = await prepare('implement', { type: 'worktree' });
    expect(ws.branch).toBe('wave/run-1/implement');
    expect(await git(ws.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('wave/run-1/implement');
  });

  it('copies mounts into the worktree', async () => {
    await writeTree(dir, { 'shared/data.txt': 'data\n' });
    const ws = await prepare('implement', { type: 'worktree', branch: 'with-mount', mount: [{ source: '../shared', target: 'inputs' }] });
    expect(await readFile(join(ws.path, 'inputs', 'data.txt'), 'utf8')).toBe('data\n');
  });
});

describe('worktree failures', () => {
  it('explains that the project must be a git repository', async () => {
    const plain = join(dir, 'plain');
    await makeProject(plain);
    const error = await errorOf(
      prepareWorkspace({ workspaceRoot: join(plain, '.wave', 'workspaces'), runId: 'run-1', stepId: 's', projectRoot: plain, spec: { type: 'worktree', branch: 'b' } }),
    );
    expect(error.code).toBe('workspace_failed');
    expect(error.message).toContain('not inside a git repository');
    expect(error.hint).toContain('git init');
  });

  it('explains that a repository without a commit cannot start a branch', async () => {
    const empty = join(dir, 'empty');
    await writeTree(empty, { 'a.txt': 'a' });
    await git(empty, 'init', '-q', '-b', 'main');
    const error = await errorOf(
      prepareWorkspace({ workspaceRoot: join(empty, '.wave', 'workspaces'), runId: 'run-1', stepId: 's', projectRoot: empty, spec: { type: 'worktree', branch: 'b' } }),
    );
    expect(error.message).toContain('no commit yet');
    expect(error.hint).toContain('first commit');
  });

  it('refuses a name git does not accept as a branch', async () => {
    const error = await errorOf(prepare('s', { type: 'worktree', branch: 'bad..name' }));
    expect(error.code).toBe('workspace_failed');
    expect(error.message).toContain('not a valid git branch name');
  });

  it("reports git's refusal of a branch checked out elsewhere, and a later call can still succeed", async () => {
    const error = await errorOf(prepare('s', { type: 'worktree', branch: 'main' }));
    expect(error.code).toBe('workspace_failed');
    expect(error.message).toContain('main');
    expect(error.hint).toContain('one worktree at a time');
    await git(project, 'checkout', '-q', '-b', 'elsewhere');
    const ws = await prepare('s', { type: 'worktree', branch: 'main' });
    expect(await git(ws.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
  });

  it('reports an unknown base', async () => {
    const error = await errorOf(prepare('s', { type: 'worktree', branch: 'new', base: 'no-such-ref' }));
    expect(error.code).toBe('workspace_failed');
    expect(error.message).toContain('no-such-ref');
    expect(await readdir(join(workspaceRoot, 'run-1', '.worktrees'))).toEqual([]);
  });
});
