import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRun, WaveError, type RunEvent } from '../../src/api/index.js';
import { commandPipeline, makeProject } from '../support/project.js';

const TWO_STEPS = commandPipeline('two', [
  ['a', [], 'echo from-a'],
  ['b', ['a'], 'echo from-b'],
]);

/** What the run wrote to stdout and stderr, which the API must leave alone. */
function watchOutput() {
  const out = vi.spyOn(process.stdout, 'write');
  const err = vi.spyOn(process.stderr, 'write');
  return () => [...out.mock.calls, ...err.mock.calls].map(([chunk]) => String(chunk)).filter((text) => !text.includes('vitest'));
}

/** Waits for the first event of `type` from a run's iteration, leaving the run going. */
async function firstOf(run: AsyncIterable<RunEvent>, type: RunEvent['type']): Promise<RunEvent> {
  for await (const event of run) if (event.type === type) return event;
  throw new Error(`the run ended without a ${type} event`);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('startRun', () => {
  it("gives the run's events to its iterator and to onEvent, and its result, printing nothing", async () => {
    const project = makeProject({ 'pipelines/two.yaml': TWO_STEPS });
    const printed = watchOutput();
    const seen: RunEvent[] = [];
    const run = startRun({ dir: project, pipeline: 'two', onEvent: (event) => seen.push(event) });
    const iterated: RunEvent[] = [];
    for await (const event of run) iterated.push(event);
    const result = await run.result;
    expect(printed()).toEqual([]);
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, runId: result.record.id, dir: join(project, '.wave', 'runs', result.runId) });
    expect(iterated).toEqual(seen);
    expect(iterated.map((event) => event.type).at(0)).toBe('run_started');
    expect(iterated.map((event) => event.type).at(-1)).toBe('run_finished');
    expect(iterated.flatMap((event) => (event.type === 'step_output' ? [[event.stepId, event.line]] : []))).toEqual([
      ['a', 'from-a'],
      ['b', 'from-b'],
    ]);
    // A late iteration still sees every event.
    const again: RunEvent[] = [];
    for await (const event of run) again.push(event);
    expect(again).toEqual(iterated);
  });

  it("gives a child run's events too, each with the child's runId", async () => {
    const project = makeProject({
      'pipelines/child.yaml': commandPipeline('child', [['inner', [], 'echo from-child']]),
      'pipelines/parent.yaml': 'kind: WavePipeline\nmetadata: { name: parent }\nsteps:\n  - id: call\n    pipeline: child\n',
    });
    const run = startRun({ dir: project, pipeline: 'parent' });
    const events: RunEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;
    expect(result.status).toBe('completed');
    const childOutput = events.find((event) => event.type === 'step_output' && event.stepId === 'inner');
    expect(childOutput).toMatchObject({ line: 'from-child' });
    expect(childOutput?.runId).not.toBe(result.runId);
    expect(result.record.steps.call?.status).toBe('completed');
  });

  it('ends failed with exit code 1 when a step fails', async () => {
    const project = makeProject({ 'pipelines/bad.yaml': commandPipeline('bad', [['fails', [], 'exit 4']]) });
    const result = await startRun({ dir: project, pipeline: 'bad' }).result;
    expect(result).toMatchObject({ status: 'failed', exitCode: 1 });
    expect(result.record.steps.fails?.status).toBe('failed');
  });

  it('stops the running steps on cancel(), ending cancelled with exit code 130', async () => {
    const project = makeProject({ 'pipelines/slow.yaml': commandPipeline('slow', [['wait', [], 'sleep 30']]) });
    const run = startRun({ dir: project, pipeline: 'slow' });
    await firstOf(run, 'attempt_spawned');
    run.cancel();
    expect(await run.result).toMatchObject({ status: 'cancelled', exitCode: 130 });
  });

  it("stops the run when the caller's AbortSignal aborts", async () => {
    const project = makeProject({ 'pipelines/slow.yaml': commandPipeline('slow', [['wait', [], 'sleep 30']]) });
    const controller = new AbortController();
    const run = startRun({ dir: project, pipeline: 'slow', signal: controller.signal });
    await firstOf(run, 'attempt_spawned');
    controller.abort();
    expect(await run.result).toMatchObject({ status: 'cancelled', exitCode: 130 });
  });

  it('rejects with a located WaveError when the pipeline is invalid, and its iterator throws the same', async () => {
    const project = makeProject({});
    mkdirSync(join(project, 'pipelines'));
    writeFileSync(join(project, 'pipelines', 'broken.yaml'), 'kind: WavePipeline\nmetadata: { name: broken }\nsteps:\n  - id: a\n    exec: { type: command }\n');
    const run = startRun({ dir: project, pipeline: 'broken' });
    const error = await run.result.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(WaveError);
    expect(error).toMatchObject({ code: 'missing_field', location: { line: 5 } });
    await expect(firstOf(run, 'run_started')).rejects.toBe(error);
  });
});
