import { describe, expect, it, vi } from 'vitest';
import { AdapterRegistry } from '../../src/adapters/registry.js';
import { EventBus } from '../../src/events.js';
import { executeRun } from '../../src/engine/run/run-pipeline.js';
import { ManualClock } from '../support/manual-clock.js';
import { plannedRun } from '../support/mock-run.js';
import { MockRunner, type MockScriptFor } from '../support/mock-runner.js';

/** Runs a pipeline in-process on a mock runner standing in for claude; returns the final record. */
async function execute(pipeline: string, scriptFor: MockScriptFor) {
  const { plan, store } = await plannedRun(pipeline, { files: { 'src/app.txt': 'app\n' } });
  const registry = new AdapterRegistry().register(Object.assign(new MockRunner(scriptFor), { type: 'claude' as const }));
  const status = await executeRun({ plan, store, bus: new EventBus(), registry, parentEnv: process.env }, { onFailure: 'halt', signal: new AbortController().signal });
  return { status, record: store.record };
}

describe('a step failure keeps the class of its WaveError', () => {
  it('records a changed readonly mount as mount_modified and does not retry it', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: guard
    persona: agent
    retry: { max_attempts: 3, base_delay: 1ms }
    workspace: { mount: [{ source: ./src, target: code, mode: readonly }] }
    exec: { source: "read the code" }
`;
    const { status, record } = await execute(pipeline, () => ({ writeFiles: { 'code/app.txt': 'changed\n' } }));
    expect(status).toBe('failed');
    expect(record.steps.guard!.failure).toMatchObject({ class: 'mount_modified', message: expect.stringContaining('`app.txt` was modified') });
    expect(record.steps.guard!.attempts).toHaveLength(1);
  });

  it('records a template reading a field the output lacks as template_invalid, with its hint', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: a, persona: agent, exec: { source: "answer" } }
  - { id: b, persona: agent, dependencies: [a], exec: { source: "use {{ steps.a.output.missing }}" } }
`;
    const { status, record } = await execute(pipeline, (config) => ({ result: { text: config.stepId === 'a' ? '{"found": 1}' : 'done' } }));
    expect(status).toBe('failed');
    expect(record.steps.b!.failure).toEqual({
      class: 'template_invalid',
      message: '`steps.a.output.missing`: the output of `a` has no field `missing`',
      hint: 'Name a field its output has (it begins "{\\"found\\": 1}").',
    });
  });
});

describe("a retry's wait is measured on the run's clock", () => {
  it('waits out an hour of backoff when the clock says an hour has passed, not before', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: flaky, persona: agent, retry: { max_attempts: 2, base_delay: 1h, max_delay: 1h }, exec: { source: "try" } }
`;
    const { plan, store } = await plannedRun(pipeline);
    const runner = Object.assign(
      new MockRunner((_config, attempt) => (attempt === 1 ? { result: { ok: false, failure: { class: 'non_zero_exit', message: 'exited with code 1' } } } : {})),
      { type: 'claude' as const },
    );
    const clock = new ManualClock();
    const context = { plan, store, bus: new EventBus(), registry: new AdapterRegistry().register(runner), parentEnv: process.env, clock };
    const running = executeRun(context, { onFailure: 'halt', signal: new AbortController().signal });
    await vi.waitFor(() => expect(store.record.steps.flaky!.status).toBe('retrying'));
    // The attempt's timers are gone; only the retry's wait is left on the clock.
    await vi.waitFor(() => expect(clock.waiting).toBe(1));
    expect(store.readEvents().find((event) => event.type === 'step_retrying')).toMatchObject({ delayMs: 3_600_000 });
    clock.advance(3_599_999);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.record.steps.flaky!).toMatchObject({ status: 'retrying', attempts: [{ attempt: 1 }] });
    clock.advance(1);
    expect(await running).toBe('completed');
    expect(store.record.steps.flaky!.attempts).toHaveLength(2);
  });
});
