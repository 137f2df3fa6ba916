import { describe, expect, it } from 'vitest';
import { AdapterRegistry } from '../../src/adapters/registry.js';
import type { TokenUsage } from '../../src/core/models/tokens.js';
import { EventBus, type RunEvent } from '../../src/events.js';
import { RunBudget } from '../../src/engine/run/run-budget.js';
import { executeRun } from '../../src/engine/run/run-pipeline.js';
import { describeEvent } from '../../src/report/text.js';
import { formatSummary } from '../../src/report/summary.js';
import { resetForResume } from '../../src/state/reset-for-resume.js';
import { RunStore } from '../../src/state/run-store.js';
import { plannedRun } from '../support/mock-run.js';
import { MockRunner, type MockScriptFor } from '../support/mock-runner.js';

const tokens = (input: number, output: number): TokenUsage => ({ input, output, cacheRead: 0, cacheWrite: 0 });

/** A manifest whose persona runs on claude, with `cost` as its runtime.cost and `prices` on the adapter. */
const manifest = (cost: string, prices = '') => `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: { binary: claude${prices ? `, prices: ${prices}` : ''} }
personas:
  agent: { adapter: claude }
runtime:
  cost: ${cost}
`;

/** Two agent steps, `second` after `first`; `retry` goes on both. */
const pipeline = (retry = '') => `kind: WavePipeline
metadata: { name: p }
steps:
  - id: first
    persona: agent
    exec: { source: "one" }${retry}
  - id: second
    persona: agent
    dependencies: [first]
    exec: { source: "two" }${retry}
`;

/** Runs the planned pipeline on a scripted claude runner, collecting the events. */
async function execute(planned: Awaited<ReturnType<typeof plannedRun>>, scriptFor: MockScriptFor) {
  const { plan, store } = planned;
  const runner = new MockRunner(scriptFor, 'claude');
  const registry = new AdapterRegistry().register(runner);
  const bus = new EventBus();
  const events: RunEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const started = Date.now();
  const status = await executeRun({ plan, store, bus, registry, parentEnv: process.env }, { onFailure: 'halt', signal: new AbortController().signal });
  return { status, record: store.record, events, runner, elapsedMs: Date.now() - started };
}

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe('runtime.cost: the run warns once at warn_at and stops at budget_ceiling', () => {
  it('warns once when the run reaches warn_at (an amount in dollars), and finishes when it stays under the ceiling', async () => {
    const planned = await plannedRun(pipeline(), { manifest: manifest('{ budget_ceiling: 10, warn_at: 2.5 }') });
    const { status, events } = await execute(planned, () => ({
      events: [{ kind: 'usage', tokens: tokens(10, 1), costUsd: 1.5 }],
      result: { text: 'ok', tokens: tokens(10, 1), costUsd: 1.5 },
    }));
    expect(status).toBe('completed');
    const warnings = ofType(events, 'budget_warning');
    // 1.5 after the first step, 3.0 once the second step's usage arrives: one warning, by the second step.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ spentUsd: 3, warnAtUsd: 2.5, ceilingUsd: 10, step: 'second' });
    expect(describeEvent(warnings[0]!, (id) => id)).toBe('budget warning: the run has spent $3.00, reaching runtime.cost.warn_at $2.50 (budget_ceiling $10.00)');
    expect(ofType(events, 'budget_exhausted')).toEqual([]);
  });

  it('stops a step mid-way once its running cost reaches the ceiling: no retry, its dependent never starts, the run fails budget_exhausted', async () => {
    const planned = await plannedRun(pipeline('\n    retry: { max_attempts: 3, base_delay: 1ms }'), { manifest: manifest('{ budget_ceiling: 1 }') });
    const { status, record, events, runner, elapsedMs } = await execute(planned, () => ({
      events: [
        { kind: 'usage', tokens: tokens(100, 10), costUsd: 0.4 },
        { kind: 'usage', tokens: tokens(100, 10), costUsd: 0.7 },
      ],
      // The attempt would go on for a minute: only the budget can end it this soon.
      delayMs: 60_000,
      result: { text: 'never', tokens: tokens(200, 20), costUsd: 1.1 },
    }));
    expect(elapsedMs).toBeLessThan(30_000);
    expect(status).toBe('failed');
    expect(runner.calls.map((c) => c.stepId)).toEqual(['first']);
    const first = record.steps.first!;
    expect(first.status).toBe('failed');
    expect(first.failure?.class).toBe('budget_exhausted');
    expect(first.attempts).toHaveLength(1);
    expect(first.attempts[0]!.failure?.class).toBe('budget_exhausted');
    expect(record.steps.second!.status).toBe('pending');
    expect(record.failure).toMatchObject({ class: 'budget_exhausted' });
    expect(record.failure!.message).toContain('$1.10');
    const exhausted = ofType(events, 'budget_exhausted');
    expect(exhausted).toEqual([expect.objectContaining({ spentUsd: 1.1, ceilingUsd: 1, step: 'first' })]);
    expect(describeEvent(exhausted[0]!, (id) => id)).toBe(
      'budget exhausted: the run has spent $1.10, reaching runtime.cost.budget_ceiling $1.00; no new step starts and running steps are stopped',
    );
    expect(ofType(events, 'step_retrying')).toEqual([]);
    expect(formatSummary(record, planned.store.dir)).toContain('budget_exhausted: the run has spent $1.10, reaching its budget_ceiling of $1.00');
  });

  it('prices tokens the stream reports without a cost by the adapter prices, live, and stops on them', async () => {
    // 1 dollar per thousand input tokens: 600 tokens, then 1,200 in all.
    const planned = await plannedRun(pipeline(), { manifest: manifest('{ budget_ceiling: 1 }', '{ input: 1000 }') });
    const { status, record, events } = await execute(planned, () => ({
      events: [
        { kind: 'usage', tokens: tokens(600, 0) },
        { kind: 'usage', tokens: tokens(600, 0) },
      ],
      delayMs: 60_000,
    }));
    expect(status).toBe('failed');
    expect(ofType(events, 'step_tokens').map((e) => e.costUsd)).toEqual([0.6, 1.2]);
    expect(record.steps.first!.failure?.class).toBe('budget_exhausted');
    // Stopped before its CLI's result, the attempt keeps what its stream reported: it was used and paid for.
    expect(record.steps.first!.attempts[0]).toMatchObject({ tokens: tokens(1200, 0), costUsd: 1.2 });
    expect(record.costUsd).toBe(1.2);
  });

  it('lets the step that crossed the ceiling at its end complete, and starts nothing after it', async () => {
    const planned = await plannedRun(pipeline(), { manifest: manifest('{ budget_ceiling: 1 }') });
    const { status, record, runner } = await execute(planned, () => ({ result: { text: 'done', tokens: tokens(5, 5), costUsd: 1.25 } }));
    expect(status).toBe('failed');
    expect(runner.calls.map((c) => c.stepId)).toEqual(['first']);
    expect(record.steps.first!.status).toBe('completed');
    expect(record.steps.second!.status).toBe('pending');
    expect(record.failure?.class).toBe('budget_exhausted');
  });

  it('counts what a resumed run spent before: already past the ceiling, no step starts', async () => {
    const planned = await plannedRun(pipeline(), { manifest: manifest('{ budget_ceiling: 2, warn_at: 1 }') });
    // The first session: `first` completes at 0.8, `second` fails after spending 0.9.
    const firstRun = await execute(planned, (config) =>
      config.stepId === 'first'
        ? { result: { text: 'ok', tokens: tokens(1, 1), costUsd: 0.8 } }
        : { result: { ok: false, tokens: tokens(1, 1), costUsd: 0.9, failure: { class: 'auth_failed', message: 'bad key' } } },
    );
    expect(firstRun.status).toBe('failed');
    expect(ofType(firstRun.events, 'budget_warning')).toHaveLength(1);
    const store = RunStore.open(planned.plan.runtime.runsRoot, planned.store.record.id);
    store.appendEvent(resetForResume(store.record, planned.plan));
    // Resumed: 0.8 + 0.9 already spent; the retry of `second` reports 0.4 more, which reaches the ceiling.
    const resumed = await execute({ ...planned, store }, () => ({ events: [{ kind: 'usage', tokens: tokens(1, 1), costUsd: 0.4 }], delayMs: 60_000 }));
    expect(resumed.status).toBe('failed');
    expect(resumed.runner.calls.map((c) => c.stepId)).toEqual(['second']);
    // Past warn_at from the start: said again at once, before any step runs.
    const warning = ofType(resumed.events, 'budget_warning')[0]!;
    expect(warning.spentUsd).toBeCloseTo(1.7, 10);
    expect(warning.step).toBeUndefined();
    expect(ofType(resumed.events, 'budget_exhausted')[0]!.spentUsd).toBeCloseTo(2.1, 10);
    expect(resumed.record.steps.second!.failure?.class).toBe('budget_exhausted');
    // A third session: the ceiling is already reached, nothing runs.
    const again = RunStore.open(planned.plan.runtime.runsRoot, planned.store.record.id);
    again.appendEvent(resetForResume(again.record, planned.plan));
    const third = await execute({ ...planned, store: again }, () => ({ result: { text: 'ok' } }));
    expect(third.status).toBe('failed');
    expect(third.runner.calls).toEqual([]);
    expect(ofType(third.events, 'budget_exhausted')).toEqual([expect.objectContaining({ ceilingUsd: 2 })]);
    expect(third.record.failure?.class).toBe('budget_exhausted');
  });

  it('without runtime.cost, costs are recorded and nothing stops the run', async () => {
    const planned = await plannedRun(pipeline());
    const { status, record, events } = await execute(planned, () => ({ result: { text: 'ok', tokens: tokens(1, 1), costUsd: 500 } }));
    expect(status).toBe('completed');
    expect(record.costUsd).toBe(1000);
    expect(events.filter((e) => e.type.startsWith('budget_'))).toEqual([]);
  });

  it('enabled: true with warn_at alone warns without a ceiling (Wave keeps its ledger for either)', async () => {
    const planned = await plannedRun(pipeline(), { manifest: manifest('{ enabled: true, warn_at: 1 }') });
    const { status, events } = await execute(planned, () => ({ result: { text: 'ok', tokens: tokens(1, 1), costUsd: 0.75 } }));
    expect(status).toBe('completed');
    expect(ofType(events, 'budget_warning')).toEqual([expect.objectContaining({ spentUsd: 1.5, warnAtUsd: 1, step: 'second' })]);
    expect(ofType(events, 'budget_warning')[0]).not.toHaveProperty('ceilingUsd');
  });

  it('counts every visit of a step a route sends back to: a fix loop stops at the ceiling, not at its visit limit', async () => {
    const loop = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: fix
    persona: agent
    exec: { source: "fix" }
  - id: test
    persona: agent
    dependencies: [fix]
    exec: { source: "test" }
  - id: check
    type: conditional
    dependencies: [test]
    edges:
      - { target: fix }
`;
    const planned = await plannedRun(loop, { manifest: manifest('{ budget_ceiling: 2.5 }') });
    // The fix costs 1.5 a visit; the tests fail each time another way (the circuit breaker would stop the same failure).
    const { status, record, events } = await execute(planned, (config, attempt) =>
      config.stepId === 'fix'
        ? { result: { text: 'fixed', tokens: tokens(10, 1), costUsd: 1.5 } }
        : { result: { ok: false, exitCode: 1, text: '', failure: { class: 'non_zero_exit', message: `test run ${attempt} failed` } } },
    );
    expect(status).toBe('failed');
    // 1.5 a visit: the second one reaches the ceiling.
    expect(ofType(events, 'budget_exhausted')).toEqual([expect.objectContaining({ spentUsd: 3, ceilingUsd: 2.5, step: 'fix' })]);
    expect(record.steps.fix).toMatchObject({ visits: 2, costUsd: 3 });
    expect(record.costUsd).toBe(3);
  });
});

describe("runtime.cost: a child run spends its parent's budget", () => {
  /** An event of run `runId` as it would come on the parent's bus. */
  const on = (runId: string, body: Record<string, unknown>) => ({ v: 1, ts: '2026-01-01T00:00:00.000Z', runId, ...body }) as RunEvent;

  it("counts the children's running and settled costs, a grandchild's once, and moves a finished child's cost into its parent step", async () => {
    const { store } = await plannedRun(pipeline(), { manifest: manifest('{ budget_ceiling: 10 }') });
    const budget = new RunBudget({ ceilingUsd: 10 }, () => store.record);
    const parent = store.record.id;
    expect(budget.observe(on('child-1', { type: 'step_tokens', stepId: 'a', attempt: 1, tokens: tokens(1, 1), costUsd: 2 }))).toBe(true);
    expect(budget.spent()).toBe(2);
    budget.observe(on('child-1', { type: 'attempt_finished', stepId: 'a', attempt: 1, tokens: tokens(1, 1), costUsd: 3, durationMs: 1, exitCode: 0 }));
    expect(budget.spent()).toBe(3);
    // A grandchild's cost counts while it runs, then moves into child-1's step when that step is charged with it.
    budget.observe(on('grandchild', { type: 'step_tokens', stepId: 'g', attempt: 1, tokens: tokens(1, 1), costUsd: 4 }));
    expect(budget.spent()).toBe(7);
    budget.observe(on('child-1', { type: 'child_run_finished', stepId: 'b', childRunId: 'grandchild', status: 'completed', tokens: tokens(1, 1), costUsd: 4 }));
    expect(budget.spent()).toBe(7);
    expect(budget.crossing()).toBeUndefined();
    // child-1 ends: the parent's step `first` is charged with all of it (the store folds the event first, as emit does).
    const finished = on(parent, { type: 'child_run_finished', stepId: 'first', childRunId: 'child-1', status: 'completed', tokens: tokens(2, 2), costUsd: 7 });
    store.appendEvent(finished);
    budget.observe(finished);
    expect(store.record.steps.first!.costUsd).toBe(7);
    expect(budget.spent()).toBe(7);
    budget.observe(on('child-2', { type: 'step_tokens', stepId: 'a', attempt: 1, tokens: tokens(1, 1), costUsd: 3.5 }));
    expect(budget.spent()).toBe(10.5);
    expect(budget.crossing()).toBe('exhausted');
  });
});
