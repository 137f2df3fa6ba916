import { describe, expect, it } from 'vitest';
import { ClaudeStream } from '../../src/adapters/claude/outcome.js';
import { AdapterRegistry } from '../../src/adapters/registry.js';
import type { StreamEvent } from '../../src/adapters/types.js';
import type { TokenUsage } from '../../src/core/models/tokens.js';
import { EventBus, type RunEvent } from '../../src/events.js';
import { executeRun } from '../../src/engine/run/run-pipeline.js';
import { plannedRun } from '../support/mock-run.js';
import { MockRunner, type MockScriptFor } from '../support/mock-runner.js';

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: work
    persona: agent
    retry: { max_attempts: 2, base_delay: 1ms }
    exec: { source: "do it" }
`;

const tokens = (input: number, output: number, cacheRead = 0, cacheWrite = 0): TokenUsage => ({ input, output, cacheRead, cacheWrite });

/** Each step_tokens event with whether the step was still running (or retrying) then and whether its attempt had reported a result. */
interface Seen {
  attempt: number;
  tokens: TokenUsage;
  costUsd?: number;
  stepRunning: boolean;
  afterResult: boolean;
}

/** Runs PIPELINE on a scripted claude runner and watches the bus as the run goes. */
async function execute(scriptFor: MockScriptFor) {
  const { plan, store } = await plannedRun(PIPELINE);
  const registry = new AdapterRegistry().register(new MockRunner(scriptFor, 'claude'));
  const bus = new EventBus();
  const events: RunEvent[] = [];
  const seen: Seen[] = [];
  const results = new Set<number>();
  bus.subscribe((event) => {
    events.push(event);
    if (event.type === 'step_event' && event.event.kind === 'result') results.add(event.attempt);
    if (event.type === 'step_tokens') {
      const { attempt, tokens, costUsd } = event;
      seen.push({
        attempt,
        tokens,
        ...(costUsd !== undefined ? { costUsd } : {}),
        stepRunning: ['running', 'retrying'].includes(store.record.steps.work!.status),
        afterResult: results.has(attempt),
      });
    }
  });
  const status = await executeRun({ plan, store, bus, registry, parentEnv: process.env }, { onFailure: 'halt', signal: new AbortController().signal });
  return { status, record: store.record, events, seen };
}

// Claude Code 2.1.330's lines for a two-request run (as the scripted model server answers): two messages, then the result.
const assistant = (id: string, input: number) =>
  JSON.stringify({
    type: 'assistant',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: id }],
      usage: { input_tokens: input, output_tokens: 1, cache_read_input_tokens: 11, cache_creation_input_tokens: 7 },
    },
  });
const CLAUDE_LINES = [
  assistant('msg_0', 2500),
  assistant('msg_0', 2500),
  assistant('msg_1', 2586),
  JSON.stringify({
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: 'done',
    total_cost_usd: 0.0213,
    usage: { input_tokens: 5086, output_tokens: 44, cache_read_input_tokens: 22, cache_creation_input_tokens: 14 },
  }),
];

/** What ClaudeStream makes of the lines, and the outcome it reports. */
function claudeScript() {
  const stream = new ClaudeStream();
  const events: StreamEvent[] = CLAUDE_LINES.flatMap((line) => stream.line(line));
  const outcome = stream.finish({ exitCode: 0, signal: null, aborted: false, skippedLines: 0, tail: '', stderrTail: '' });
  return { events, outcome };
}

describe("the executor publishes a step's running tokens while it runs", () => {
  it("Claude's per-message usage raises the totals before the result; the result's total replaces them, nothing is added twice", async () => {
    const { events, outcome } = claudeScript();
    const { status, record, seen } = await execute(() => ({ events, delayMs: 20, result: { text: outcome.text, tokens: outcome.tokens, costUsd: outcome.costUsd } }));
    expect(status).toBe('completed');
    expect(seen).toEqual([
      { attempt: 1, tokens: tokens(2500, 1, 11, 7), stepRunning: true, afterResult: false },
      { attempt: 1, tokens: tokens(5086, 2, 22, 14), stepRunning: true, afterResult: false },
      { attempt: 1, tokens: tokens(5086, 44, 22, 14), costUsd: 0.0213, stepRunning: true, afterResult: true },
    ]);
    expect(record.steps.work!.tokens).toEqual(tokens(5086, 44, 22, 14));
    expect(record.steps.work!.costUsd).toBe(0.0213);
  });

  it("the adapter's final figures win over the streamed sum, and step_completed carries the last running totals", async () => {
    const { status, record, events, seen } = await execute(() => ({
      events: [
        { kind: 'usage', tokens: tokens(100, 10), costUsd: 0.01 },
        { kind: 'usage', tokens: tokens(200, 20), costUsd: 0.02 },
      ],
      result: { tokens: tokens(250, 25), costUsd: 0.025 },
    }));
    expect(status).toBe('completed');
    expect(seen.map((s) => [s.tokens.input, s.costUsd])).toEqual([
      [100, 0.01],
      [300, 0.03],
      [250, 0.025],
    ]);
    const completed = events.find((e) => e.type === 'step_completed');
    expect(completed).toMatchObject({ tokens: tokens(250, 25), costUsd: 0.025 });
    expect(record.tokens).toEqual(tokens(250, 25));
    // The last running figure is the step's: a step_tokens comes before step_completed, never after.
    expect(events.findLastIndex((e) => e.type === 'step_tokens')).toBeLessThan(events.indexOf(completed!));
  });

  it("a retry's running totals start from the earlier attempts' and end at their sum", async () => {
    const { status, record, seen } = await execute((_config, attempt) =>
      attempt === 1
        ? { events: [{ kind: 'usage', tokens: tokens(100, 10) }], result: { ok: false, tokens: tokens(100, 10), failure: { class: 'server_error', message: 'HTTP 500' } } }
        : { events: [{ kind: 'usage', tokens: tokens(40, 4) }], delayMs: 20, result: { tokens: tokens(50, 5) } },
    );
    expect(status).toBe('completed');
    expect(seen.map((s) => [s.attempt, s.tokens.input, s.tokens.output, s.stepRunning])).toEqual([
      [1, 100, 10, true],
      [2, 140, 14, true],
      [2, 150, 15, true],
    ]);
    expect(record.steps.work!.tokens).toEqual(tokens(150, 15));
  });

  it('a command step, which reports no tokens, publishes none', async () => {
    const { seen } = await execute(() => ({ result: { text: 'ok' } }));
    expect(seen).toEqual([]);
  });
});
