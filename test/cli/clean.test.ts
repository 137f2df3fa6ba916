import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

// One worktree step on Wave's default branch, which commits its work and then fails: the run leaves both behind.
const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: fix
    workspace: { type: worktree }
    exec: { type: command, source: "echo work > w.txt && git add w.txt && git -c user.name=t -c user.email=t@example.invalid commit -qm work && exit 3" }
`;

describe('wave clean', () => {
  it('removes what finished runs left — workspaces, worktrees, wave/<run>/… branches — and says so; the run said how', async () => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE, 'a.txt': 'a\n' });
    const git = (...args: string[]) => execFileSync('git', ['-C', project, ...args], { encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-qm', 'start');
    const run = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(run.code).toBe(1);
    const id = latestRun(project).id;
    const branch = `wave/${id}/fix`;
    expect(run.stderr).toContain(`The run's workspaces are kept in .wave/workspaces/${id} (with its git worktrees)`);
    expect(run.stderr).toContain('`wave clean` removes them and its wave/<run>/… branches');
    expect(git('log', '-1', '--format=%s', branch)).toBe('work');

    const dry = await runWave(['clean', '--dry-run'], { cwd: project });
    expect(dry.stdout).toBe(`would remove ${id}: workspaces .wave/workspaces/${id}, branch ${branch}`);
    expect(existsSync(join(project, '.wave', 'workspaces', id))).toBe(true);
    expect((await runWave(['clean', '--older-than', '1d'], { cwd: project })).stdout).toBe('Nothing to clean: no finished run left workspaces or branches.');

    const kept = await runWave(['clean', '--keep-branches'], { cwd: project });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toBe(`removed ${id}: workspaces .wave/workspaces/${id}`);
    expect(existsSync(join(project, '.wave', 'workspaces', id))).toBe(false);
    expect(git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(git('log', '-1', '--format=%s', branch)).toBe('work');

    expect((await runWave(['clean'], { cwd: project })).stdout).toBe(`removed ${id}: branch ${branch}`);
    expect(git('branch', '--list', 'wave/*')).toBe('');
    expect((await runWave(['clean'], { cwd: project })).stdout).toMatch(/^Nothing to clean/);
    // The record stays: `wave status` still tells what happened.
    const status = await runWave(['status', id], { cwd: project });
    expect(status.stdout).toContain(id);
    expect(status.stdout).toContain('failed');
  });

  it('refuses an age it cannot read', async () => {
    const result = await runWave(['clean', '--older-than', 'soon'], { cwd: makeProject({}) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--older-than expects an age such as 30m, 12h or 7d, got `soon`');
  });
});
