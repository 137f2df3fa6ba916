import { describe, expect, it } from 'vitest';
import { git } from '../fixtures/workspace/helpers.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

/** Two command steps in worktrees (one from an explicit base) and one in a plain folder. */
const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: plain
    exec: { type: command, source: "echo plain" }
  - id: tree
    workspace: { type: worktree, branch: wave-tree }
    exec: { type: command, source: "git rev-parse --abbrev-ref HEAD" }
  - id: based
    workspace: { type: worktree, branch: wave-based, base: main }
    exec: { type: command, source: "echo based" }
`;

const NOT_A_REPOSITORY =
  /pipelines\/p\.yaml:7:24: workspace_failed: steps `tree`, `based`: workspace\.type worktree needs a git repository, but the project folder .* is not inside one, so they would fail/;

describe('worktree steps in a folder that is not a git repository', () => {
  it('validate and run --dry-run warn at the first worktree step, with the hint; --strict makes it an error', async () => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE });
    const validate = await runWave(['validate'], { cwd: project });
    expect(validate.code).toBe(0);
    expect(validate.stdout).toMatch(new RegExp(`warning: ${NOT_A_REPOSITORY.source}\\n  hint: Run \`git init\` in the project and commit there, or use a directory workspace`));
    expect(validate.stdout).toContain('2 files valid, 1 warning');

    const json = JSON.parse((await runWave(['validate', '--json'], { cwd: project })).stdout) as Array<Record<string, unknown>>;
    expect(json).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'workspace_failed', file: 'pipelines/p.yaml', line: 7, column: 24, hint: expect.stringContaining('git init') }),
    ]);

    const strict = await runWave(['validate', '--strict'], { cwd: project });
    expect(strict.code).toBe(2);
    expect(strict.stdout).toMatch(NOT_A_REPOSITORY);

    const dryRun = await runWave(['run', 'p', '--dry-run'], { cwd: project });
    expect(dryRun.code).toBe(0);
    expect(dryRun.stderr).toMatch(new RegExp(`^warning: .*${NOT_A_REPOSITORY.source}`, 'm'));
    expect(dryRun.stdout).toContain('Pipeline p');
  });

  it('a run warns before it starts, then the worktree steps fail with workspace_failed and its hint (not spawn_failed)', async () => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE });
    const run = await runWave(['run', 'p', '--on-failure', 'continue'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(NOT_A_REPOSITORY);
    const steps = latestRun(project).steps;
    expect(steps.plain!.status).toBe('completed');
    for (const id of ['tree', 'based']) {
      expect(steps[id]!.failure).toMatchObject({
        class: 'workspace_failed',
        message: expect.stringContaining('is not inside a git repository'),
        hint: expect.stringContaining('`git init`'),
      });
      expect(steps[id]!.status).toBe('failed');
    }
  });
});

describe('worktree steps in a git repository', () => {
  it('with no commit yet: a warning for the step that starts from HEAD only; none once there is a commit, and the run works', async () => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE });
    await git(project, 'init', '-q', '-b', 'main');
    const empty = await runWave(['validate'], { cwd: project });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(
      /warning: pipelines\/p\.yaml:7:24: workspace_failed: step `tree`: a new worktree branch starts from HEAD, but the repository at .* has no commit yet, so it would fail/,
    );
    expect(empty.stdout).toContain('hint: Make a first commit, or set workspace.base to an existing branch or commit.');

    await git(project, 'add', '-A');
    await git(project, 'commit', '-q', '-m', 'first');
    const committed = await runWave(['validate'], { cwd: project });
    expect(committed).toMatchObject({ code: 0, stdout: '✓ wave.yaml\n✓ pipelines/p.yaml\n2 files valid' });
    const run = await runWave(['run', 'p'], { cwd: project });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).not.toContain('warning');
  });
});
