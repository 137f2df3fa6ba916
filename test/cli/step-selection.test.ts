import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

// b reads what a wrote; c stands alone.
const PIPELINE = commandPipeline('p', [
  ['a', [], 'echo from-a'],
  ['b', ['a'], 'echo from-b'],
  ['c', [], 'echo from-c'],
]);

describe('--steps, --exclude and --with-deps', () => {
  it('refuses a selected step whose dependency would not run, naming both, before anything runs', async () => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE });
    for (const flags of [
      ['--steps', 'b'],
      ['--exclude', 'a'],
      ['--steps', 'b', '--with-deps', '--exclude', 'a'],
    ]) {
      const run = await runWave(['run', 'p', ...flags], { cwd: project });
      expect(run.code, flags.join(' ')).toBe(2);
      expect(run.stderr).toContain('the selected steps depend on steps that will not run: `b` needs `a`');
      expect(run.stderr).toMatch(flags.includes('--with-deps') ? /Do not --exclude/ : /pass --with-deps/);
    }
    expect(existsSync(join(project, '.wave', 'runs'))).toBe(false);
  });

  it('--with-deps runs what the selected steps depend on, and the record keeps that selection', async () => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE });
    const run = await runWave(['run', 'p', '--steps', 'b', '--with-deps', '--output', 'quiet'], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    const record = latestRun(project);
    expect([record.steps.a!.status, record.steps.b!.status, record.steps.c!.status]).toEqual(['completed', 'completed', 'pending']);
    expect([...record.options.steps!].sort()).toEqual(['a', 'b']);
  });

  it('--dry-run shows exactly the steps that would run', async () => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE });
    const all = await runWave(['run', 'p', '--dry-run'], { cwd: project });
    expect(all.stdout).toContain('  1. a, c\n  2. b\n');
    const some = await runWave(['run', 'p', '--dry-run', '--steps', 'b', '--with-deps'], { cwd: project });
    expect(some.code, some.stderr).toBe(0);
    expect(some.stdout).toContain('Selected: 2 of 3 steps; the others do not run');
    expect(some.stdout).toContain('  1. a\n  2. b\n');
    expect(some.stdout).toContain('\nStep a\n');
    expect(some.stdout).not.toContain('\nStep c\n');
  });
});
