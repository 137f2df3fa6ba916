import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunStore } from '../../src/state/run-store.js';
import { sampleProject, sampleRecord, sampleStep } from '../state/sample-run.js';
import { runWave } from '../support/cli.js';

// Far above any pid_max, so never a live process.
const DEAD_PID = 999_999_999;

function projectWithRuns() {
  const project = sampleProject();
  const { runsRoot } = project;
  RunStore.create(
    runsRoot,
    sampleRecord('hello-20240501-120000-aaaa', { startedAt: '2024-05-01T12:00:00.000Z', durationMs: 7100 }, [
      sampleStep('a', { status: 'completed' }),
      sampleStep('b', { status: 'completed' }),
    ]),
  );
  RunStore.create(
    runsRoot,
    sampleRecord('review-20240502-080000-bbbb', { pipeline: 'review', status: 'failed', startedAt: '2024-05-02T08:00:00.000Z', durationMs: 184_000 }, [
      sampleStep('navigate', { status: 'completed' }),
      sampleStep('review', { status: 'failed' }),
    ]),
  );
  RunStore.create(
    runsRoot,
    sampleRecord('hello-20240503-090000-cccc', { status: 'running', pid: DEAD_PID, startedAt: '2024-05-03T09:00:00.000Z' }, [
      sampleStep('a', { status: 'running' }),
      sampleStep('b'),
    ]),
  );
  mkdirSync(join(runsRoot, 'not-a-run'));
  return project;
}

describe('wave runs', () => {
  it('lists the runs newest first with id, pipeline, status, start, duration and steps done', async () => {
    const project = projectWithRuns();
    const result = await runWave(['runs'], { cwd: project.dir, env: { TZ: 'UTC' } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'ID                           PIPELINE  STATUS       STARTED           DURATION  STEPS',
        'hello-20240503-090000-cccc   hello     interrupted  2024-05-03 09:00  -         0/2',
        'review-20240502-080000-bbbb  review    failed       2024-05-02 08:00  3m04s     1/2',
        'hello-20240501-120000-aaaa   hello     completed    2024-05-01 12:00  7.1s      2/2',
      ].join('\n'), // runWave drops the final newline
    );
  });

  it('prints JSON, honours --limit, and finds the manifest with -m from another folder', async () => {
    const project = projectWithRuns();
    const result = await runWave(['runs', '--json', '--limit', '2', '-m', project.manifest], { cwd: '/' });
    expect(result.code).toBe(0);
    const runs = JSON.parse(result.stdout);
    expect(runs.map((r: { id: string }) => r.id)).toEqual(['hello-20240503-090000-cccc', 'review-20240502-080000-bbbb']);
    expect(runs[1]).toEqual({
      id: 'review-20240502-080000-bbbb',
      pipeline: 'review',
      status: 'failed',
      startedAt: '2024-05-02T08:00:00.000Z',
      finishedAt: null,
      durationMs: 184_000,
      stepsDone: 1,
      stepsTotal: 2,
    });
  });

  it('nests a child run under its parent, indented, and carries parentId in --json', async () => {
    const project = sampleProject();
    const done = { status: 'completed' as const, durationMs: 2000 };
    RunStore.create(project.runsRoot, sampleRecord('outer-20240601-100000-pppp', { ...done, pipeline: 'outer', startedAt: '2024-06-01T10:00:00.000Z' }, [sampleStep('call')]));
    RunStore.create(project.runsRoot, sampleRecord('hello-20240601-100500-qqqq', { ...done, startedAt: '2024-06-01T10:05:00.000Z' }, [sampleStep('a')]));
    const child = { ...done, parentId: 'outer-20240601-100000-pppp', pipeline: 'inner', startedAt: '2024-06-01T10:00:01.000Z' };
    RunStore.create(project.runsRoot, sampleRecord('inner-20240601-100001-cccc', child, [sampleStep('x', { status: 'completed' })]));
    const table = await runWave(['runs'], { cwd: project.dir, env: { TZ: 'UTC' } });
    expect(table.code).toBe(0);
    // The child follows its parent, one level in, though a run started after it is listed first.
    const [, ...rows] = table.stdout.split('\n');
    expect(rows.map((row) => row.slice(0, 40))).toEqual([
      'hello-20240601-100500-qqqq    hello     ',
      'outer-20240601-100000-pppp    outer     ',
      '  inner-20240601-100001-cccc  inner     ',
    ]);
    const json = JSON.parse((await runWave(['runs', '--json'], { cwd: project.dir })).stdout) as { id: string; parentId?: string }[];
    expect(json.map((run) => [run.id, run.parentId])).toEqual([
      ['hello-20240601-100500-qqqq', undefined],
      ['inner-20240601-100001-cccc', 'outer-20240601-100000-pppp'],
      ['outer-20240601-100000-pppp', undefined],
    ]);
    expect(json[0]).not.toHaveProperty('parentId');
  });

  it('shows a running run whose process is alive as running', async () => {
    const project = sampleProject();
    RunStore.create(project.runsRoot, sampleRecord('hello-20240503-090000-dddd', { status: 'running', pid: process.pid }, [sampleStep('a')]));
    const result = await runWave(['runs', '--json'], { cwd: project.dir });
    expect(JSON.parse(result.stdout)[0].status).toBe('running');
  });

  it('says so when there are no runs (also with no wave.yaml), and rejects a bad --limit or a missing -m manifest with exit 2', async () => {
    const project = sampleProject();
    const empty = await runWave(['runs'], { cwd: project.dir });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe(`No runs yet in ${project.runsRoot}.`);
    const badLimit = await runWave(['runs', '--limit', 'zero'], { cwd: project.dir });
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain('invalid_argument: --limit expects a positive whole number');
    // With no wave.yaml up the tree, the runs are those `wave run` records in this folder (its built-in manifest).
    const noManifest = await runWave(['runs'], { cwd: '/' });
    expect(noManifest.code).toBe(0);
    expect(noManifest.stdout).toBe('No runs yet in /.wave/runs.');
    const missing = await runWave(['runs', '-m', 'nope.yaml'], { cwd: project.dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('file_not_found: the manifest `nope.yaml` does not exist');
  });
});
