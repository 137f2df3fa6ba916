import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumeRun } from '../../src/app/run-sequence.js';
import { startRun } from '../../src/app/run-sequence.js';
import { EventBus, type RunEvent } from '../../src/events.js';
import { commandPipeline, makeProject } from '../support/project.js';

/** A writer that keeps what the run sequence says. */
function collected() {
  const chunks: string[] = [];
  return { write: (text: string) => chunks.push(text), text: () => chunks.join('') };
}

/** A project whose `second` step fails until the file `fixed` exists in it. */
function flakyProject(): string {
  const project = makeProject({});
  const pipeline = commandPipeline('flaky', [
    ['first', [], 'echo one'],
    ['second', ['first'], `test -f '${join(project, 'fixed')}' && echo two`],
  ]);
  mkdirSync(join(project, 'pipelines'));
  writeFileSync(join(project, 'pipelines', 'flaky.yaml'), pipeline);
  return project;
}

const TWO_STEPS = commandPipeline('two', [
  ['a', [], 'echo a'],
  ['b', ['a'], 'echo b'],
]);

describe('startRun', () => {
  it('runs a command-step pipeline to the end and returns its exit code, record and folder', async () => {
    const project = makeProject({ 'pipelines/two.yaml': TWO_STEPS });
    const err = collected();
    const outcome = await startRun({ cwd: project, pipeline: 'two', onFailure: 'halt', output: 'quiet', err });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.record.status).toBe('completed');
    expect(Object.values(outcome.record.steps).map((step) => [step.id, step.status])).toEqual([
      ['a', 'completed'],
      ['b', 'completed'],
    ]);
    expect(outcome.record.parentId).toBeUndefined();
    expect(outcome.dir).toBe(join(project, '.wave', 'runs', outcome.record.id));
    expect(existsSync(join(outcome.dir, 'run.json'))).toBe(true);
    expect(err.text()).toBe('');
  });

  it('records a failed step and exits 1, and --steps with --with-deps keeps what was added', async () => {
    const project = flakyProject();
    const outcome = await startRun({ cwd: project, pipeline: 'flaky', steps: ['second'], withDeps: true, onFailure: 'halt', output: 'quiet', err: collected() });
    expect(outcome.exitCode).toBe(1);
    expect(outcome.record.status).toBe('failed');
    expect(outcome.record.steps.second!.status).toBe('failed');
    expect(outcome.record.options.steps).toEqual(['second', 'first']);
  });

  it('records a child run with its parent and sends its events out on the parent bus', async () => {
    const project = makeProject({ 'pipelines/two.yaml': TWO_STEPS });
    const bus = new EventBus();
    const seen: RunEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    const parent = { runId: 'outer-20240601-100000-pppp', bus };
    const outcome = await startRun({ cwd: project, pipeline: 'two', onFailure: 'halt', output: 'quiet', err: collected(), parent });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.record.parentId).toBe('outer-20240601-100000-pppp');
    expect(seen.map((event) => event.type)).toContain('run_finished');
    expect(new Set(seen.map((event) => event.runId))).toEqual(new Set([outcome.record.id]));
  });

  it('stops a child run at once when the parent cancellation has already fired', async () => {
    const project = makeProject({ 'pipelines/two.yaml': TWO_STEPS });
    const controller = new AbortController();
    controller.abort({ class: 'aborted', message: 'cancelled' });
    const parent = { runId: 'outer-20240601-100000-pppp', signal: controller.signal };
    const outcome = await startRun({ cwd: project, pipeline: 'two', onFailure: 'halt', output: 'quiet', err: collected(), parent });
    expect(outcome.record.status).toBe('cancelled');
    expect(outcome.exitCode).toBe(130);
  });
});

describe('resumeRun', () => {
  it('finishes a failed run without re-running its completed steps', async () => {
    const project = flakyProject();
    const failed = await startRun({ cwd: project, pipeline: 'flaky', onFailure: 'halt', output: 'quiet', err: collected() });
    expect(failed.exitCode).toBe(1);
    writeFileSync(join(project, 'fixed'), '');
    const resumed = await resumeRun({ cwd: project, run: failed.record.id, output: 'quiet', err: collected() });
    expect(resumed.exitCode).toBe(0);
    expect(resumed.record.id).toBe(failed.record.id);
    expect(resumed.record.status).toBe('completed');
    expect(resumed.record.steps.second!.status).toBe('completed');
    // `first` completed in the failed run: the resume did not run it again.
    expect(resumed.record.steps.first!.attempts).toHaveLength(1);
  });
});
