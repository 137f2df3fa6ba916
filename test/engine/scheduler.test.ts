import { describe, expect, it } from 'vitest';
import { AdapterRegistry } from '../../src/adapters/registry.js';
import type { AdapterRunner } from '../../src/adapters/types.js';
import { EventBus, type RunEvent } from '../../src/events.js';
import { executeRun } from '../../src/engine/run/run-pipeline.js';
import { plannedRun } from '../support/mock-run.js';
import { MockRunner, type MockScriptFor } from '../support/mock-runner.js';

const MANIFEST = `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: { binary: claude }
  codex: { binary: codex }
personas:
  agent: { adapter: claude, fallbacks: [codex] }
runtime: { max_concurrency: 2 }
`;

/** Runs a pipeline in-process on mock runners registered as the claude and codex types. */
async function execute(pipeline: string, scriptFor: MockScriptFor, options: { signal?: AbortSignal; onEvent?: (e: RunEvent) => void } = {}) {
  const { plan, store } = await plannedRun(pipeline, { manifest: MANIFEST });
  const mock = new MockRunner(scriptFor);
  let running = 0;
  let maxRunning = 0;
  const order: string[] = [];
  const as = (type: 'claude' | 'codex'): AdapterRunner => ({
    type,
    run: async (config, signal, onEvent) => {
      order.push(`${config.stepId}:${type}`);
      maxRunning = Math.max(maxRunning, ++running);
      try {
        return await mock.run(config, signal, onEvent);
      } finally {
        running--;
      }
    },
  });
  const bus = new EventBus();
  const events: RunEvent[] = [];
  bus.subscribe((e) => {
    events.push(e);
    options.onEvent?.(e);
  });
  const registry = new AdapterRegistry().register(as('claude')).register(as('codex'));
  const status = await executeRun({ plan, store, bus, registry, parentEnv: process.env }, { onFailure: 'halt', signal: options.signal ?? new AbortController().signal });
  return { status, record: store.record, events, mock, maxRunning, order };
}

const steps = (ids: string[], extra = '') =>
  `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${ids.map((id) => `  - { id: ${id}, persona: agent, exec: { source: "do ${id}" }${extra} }`).join('\n')}\n`;

describe('the scheduler, on mock runners', () => {
  it('never runs more steps at once than max_concurrency, and runs them all', async () => {
    const { status, maxRunning, record } = await execute(steps(['a', 'b', 'c', 'd', 'e', 'f']), () => ({ delayMs: 80 }));
    expect(status).toBe('completed');
    expect(maxRunning).toBe(2);
    expect(Object.values(record.steps).every((s) => s.status === 'completed')).toBe(true);
  });

  it('starts a step only after its dependencies completed, and hands it their output', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: first, persona: agent, exec: { source: "one" } }
  - { id: second, persona: agent, dependencies: [first], exec: { source: "got {{ steps.first.output.answer }}" } }
`;
    const { order, mock } = await execute(pipeline, (config) => ({
      delayMs: 30,
      result: { text: config.stepId === 'first' ? '{"answer": 42}' : 'done' },
    }));
    expect(order).toEqual(['first:claude', 'second:claude']);
    expect(mock.calls[1]!.prompt).toBe('got 42');
  });

  it('tells a retry what failed: class, message and the end of the output', async () => {
    const { status, mock, events } = await execute(steps(['a'], ', retry: { max_attempts: 2, base_delay: 1ms }'), (_config, attempt) =>
      attempt === 1 ? { result: { ok: false, exitCode: 1, failure: { class: 'non_zero_exit', message: 'tests failed: 3' }, outputTail: '...FAIL test/login' } } : {},
    );
    expect(status).toBe('completed');
    expect(mock.calls[0]!.prompt).toBe('do a');
    expect(mock.calls[1]!.prompt).toContain('Failure class: non_zero_exit');
    expect(mock.calls[1]!.prompt).toContain('tests failed: 3');
    expect(mock.calls[1]!.prompt).toContain('...FAIL test/login');
    expect(events.filter((e) => e.type === 'step_retrying')).toHaveLength(1);
  });

  it('never retries auth_failed', async () => {
    const { status, mock } = await execute(steps(['a'], ', retry: { max_attempts: 3, base_delay: 1ms }'), () => ({
      result: { ok: false, failure: { class: 'auth_failed', message: '401' } },
    }));
    expect(status).toBe('failed');
    expect(mock.calls).toHaveLength(1);
  });

  it('waits the retry-after when rate limited, then falls back to the next adapter', async () => {
    const { status, order, events, record } = await execute(steps(['a'], ', retry: { max_attempts: 2, base_delay: 1ms }'), (config) =>
      config.adapter.name === 'claude' ? { result: { ok: false, failure: { class: 'rate_limited', message: '429', retryAfterMs: 20 } } } : { result: { text: 'ok' } },
    );
    expect(status).toBe('completed');
    expect(order).toEqual(['a:claude', 'a:claude', 'a:codex']);
    expect(events.find((e) => e.type === 'step_retrying')).toMatchObject({ delayMs: 20 });
    expect(events.find((e) => e.type === 'step_fallback')).toMatchObject({ from: 'claude', to: 'codex' });
    expect(record.steps.a!.attempts.map((a) => a.adapter)).toEqual(['claude', 'claude', 'codex']);
  });

  it('cancelling interrupts a long backoff at once and records cancelled', async () => {
    const controller = new AbortController();
    const { status, record } = await execute(
      steps(['a'], ', retry: { max_attempts: 2, base_delay: 10m }'),
      () => ({ result: { ok: false, failure: { class: 'non_zero_exit', message: 'no' } } }),
      { signal: controller.signal, onEvent: (e) => e.type === 'step_retrying' && controller.abort() },
    );
    // A ten-minute backoff that ignored the cancel would exceed the test's own time limit.
    expect(status).toBe('cancelled');
    expect(record.steps.a!.status).toBe('cancelled');
  });
});

describe('retry.adapt_prompt and retry.on_failure', () => {
  const failsFirst = (_config: unknown, attempt: number) =>
    attempt === 1 ? { result: { ok: false, exitCode: 1, failure: { class: 'non_zero_exit' as const, message: 'tests failed: 3' }, outputTail: 'FAIL' } } : {};

  it('adapt_prompt: false retries with the original prompt, nothing about the failure', async () => {
    const { status, mock } = await execute(steps(['a'], ', retry: { max_attempts: 2, base_delay: 1ms, adapt_prompt: false }'), failsFirst);
    expect(status).toBe('completed');
    expect(mock.calls.map((c) => c.prompt)).toEqual(['do a', 'do a']);
  });

  /** `a` fails at once, `b` depends on it, `c` is independent and slower: what becomes of each. */
  const failingA = (onFailure: string) => `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: a, persona: agent, exec: { source: "do a" }, retry: { on_failure: ${onFailure} } }
  - { id: b, persona: agent, dependencies: [a], exec: { source: "do b" } }
  - { id: c, persona: agent, exec: { source: "do c" } }
`;
  const script = (config: { stepId: string }) =>
    config.stepId === 'a' ? { result: { ok: false, exitCode: 1, failure: { class: 'non_zero_exit' as const, message: 'broke' } } } : { delayMs: 150 };

  it('on_failure: fail (the default) halts the run: the independent step is stopped', async () => {
    const { status, record } = await execute(failingA('fail'), script);
    expect(status).toBe('failed');
    expect(record.steps.a!.status).toBe('failed');
    expect(record.steps.c!.status).not.toBe('completed');
  });

  it('on_failure: skip records the step skipped with its failure, skips its dependents, and the run completes', async () => {
    const { status, record, events } = await execute(failingA('skip'), script);
    expect(status).toBe('completed');
    expect(record.steps.a).toMatchObject({ status: 'skipped', failure: { class: 'non_zero_exit', message: 'broke' } });
    expect(record.steps.a!.skipReason).toContain('retry.on_failure: skip');
    expect(record.steps.b!.status).toBe('skipped');
    expect(record.steps.c!.status).toBe('completed');
    expect(events.some((e) => e.type === 'step_failed')).toBe(false);
  });

  it('on_failure: continue fails the step and the run, but the run goes on: independent steps finish, dependents are skipped', async () => {
    const { status, record } = await execute(failingA('continue'), script);
    expect(status).toBe('failed');
    expect(record.steps.a!.status).toBe('failed');
    expect(record.steps.b!.status).toBe('skipped');
    expect(record.steps.c!.status).toBe('completed');
  });
});
