import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StepPart } from '../../src/state/run-parts.js';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';

const PIPELINE = commandPipeline('parts', [
  ['first', [], 'echo first'],
  ['second', ['first'], 'echo second'],
]);

/** A part for `first` as another job would leave it, with the given status. */
function leavePart(dir: string, runId: string, status: string): void {
  const parts = join(dir, '.wave/runs', runId, 'parts');
  mkdirSync(parts, { recursive: true });
  const step = {
    id: 'first',
    status,
    optional: false,
    dependencies: [],
    attempts: [],
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    artifacts: [],
    contracts: [],
    skipReason: 'test',
  };
  writeFileSync(join(parts, 'first.json'), JSON.stringify({ step, events: [] }));
}

describe('wave run --run-id over parts from other jobs', () => {
  it('runs the selected step after a completed part and leaves its own part', async () => {
    const dir = makeProject({ 'p.yaml': PIPELINE });
    leavePart(dir, 'job-run', 'completed');
    const ran = await runWave(['run', 'p.yaml', '--run-id', 'job-run', '--steps', 'second', '--output', 'quiet'], { cwd: dir });
    expect(ran.code).toBe(0);
    const part = JSON.parse(readFileSync(join(dir, '.wave/runs/job-run/parts/second.json'), 'utf8')) as StepPart;
    expect(part.step.status).toBe('completed');
    expect(part.events.map((e) => e.type)).toContain('step_completed');
  });

  it('skips the selected step when the part of its dependency says skipped, as `wave run` would', async () => {
    const dir = makeProject({ 'p.yaml': PIPELINE });
    leavePart(dir, 'job-run', 'skipped');
    const ran = await runWave(['run', 'p.yaml', '--run-id', 'job-run', '--steps', 'second', '--output', 'quiet'], { cwd: dir });
    expect(ran.code).toBe(0);
    const part = JSON.parse(readFileSync(join(dir, '.wave/runs/job-run/parts/second.json'), 'utf8')) as StepPart;
    expect(part.step).toMatchObject({ status: 'skipped', skipReason: 'dependency `first` skipped' });
  });

  it('never reuses a recorded run, and refuses an id that is no folder name', async () => {
    const dir = makeProject({ 'p.yaml': PIPELINE });
    expect((await runWave(['run', 'p.yaml', '--run-id', 'once', '--output', 'quiet'], { cwd: dir })).code).toBe(0);
    const again = await runWave(['run', 'p.yaml', '--run-id', 'once', '--output', 'quiet'], { cwd: dir });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('it exists');
    const bad = await runWave(['run', 'p.yaml', '--run-id', '../x'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--run-id');
  });
});
