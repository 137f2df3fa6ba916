import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StreamEvent } from '../../src/adapters/types.js';
import type { TokenUsage } from '../../src/core/models/tokens.js';
import { EVENT_VERSION, type RunEvent } from '../../src/events.js';
import { createTerminalSink } from '../../src/report/terminal/terminal.js';
import { CollectingStream, terminalFrames } from './scripted-run.js';

const RUN_ID = 'live-20240501-120000-abcd';
const base = { v: EVENT_VERSION, ts: '2024-05-01T12:00:00.000Z', runId: RUN_ID } as const;
const tokens = (input: number, output: number): TokenUsage => ({ input, output, cacheRead: 0, cacheWrite: 0 });
const started = (attempt: number): RunEvent => ({ ...base, type: 'step_started', stepId: 'agent', attempt, adapter: 'opencode', workspace: '/w/agent' });
const streamed = (attempt: number, event: Exclude<StreamEvent, { kind: 'output' }>): RunEvent => ({ ...base, type: 'step_event', stepId: 'agent', attempt, event });

describe('terminal sink: running tokens and cost per step, from step_tokens events', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Feeds the events, lets one frame be drawn, and returns the step's line and the footer of the latest frame. */
  function lineAfter(sink: { handle(e: RunEvent): void }, out: CollectingStream, events: RunEvent[]): [string, string] {
    for (const event of events) sink.handle(event);
    vi.advanceTimersByTime(150);
    const lines = terminalFrames(out.text).at(-1)!;
    return [lines[0]!, lines[1]!];
  }

  const newSink = () => {
    const out = new CollectingStream({ tty: true, columns: 160 });
    const sink = createTerminalSink({ out, stepIds: ['agent'], color: false, now: () => Date.parse(base.ts) });
    sink.handle({ ...base, type: 'run_started', pipeline: 'p', steps: ['agent'], resumed: false });
    return { out, sink };
  };

  const running = (attempt: number, input: number, output: number, costUsd?: number): RunEvent => ({
    ...base,
    type: 'step_tokens',
    stepId: 'agent',
    attempt,
    tokens: tokens(input, output),
    ...(costUsd !== undefined ? { costUsd } : {}),
  });

  it("shows the step's running tokens and cost from step_tokens, before any step_completed", () => {
    const { out, sink } = newSink();
    expect(lineAfter(sink, out, [started(1), running(1, 100, 20, 0.01)])).toEqual([
      '▸ agent    0.0s  100 in / 20 out  $0.0100',
      '  0/1 steps completed · 0.0s · 100 in / 20 out · $0.0100',
    ]);
    expect(lineAfter(sink, out, [running(1, 150, 30, 0.015)])[0]).toBe('▸ agent    0.0s  150 in / 30 out  $0.0150');
    sink.close();
  });

  it('usage and result stream events alone change nothing: the executor folds them into step_tokens', () => {
    const { out, sink } = newSink();
    const line = lineAfter(sink, out, [
      started(1),
      running(1, 500, 50),
      streamed(1, { kind: 'usage', tokens: tokens(500, 50), costUsd: 0.02 }),
      streamed(1, { kind: 'result', ok: true, tokens: tokens(900, 90), costUsd: 0.03 }),
    ])[0];
    expect(line).toBe('▸ agent    0.0s  500 in / 50 out');
    sink.close();
  });

  it('a retried step shows the totals step_tokens carries, earlier attempts included', () => {
    const { out, sink } = newSink();
    lineAfter(sink, out, [started(1), running(1, 150, 30, 0.015)]);
    sink.handle({ ...base, type: 'step_retrying', stepId: 'agent', attempt: 1, delayMs: 1000, failure: { class: 'rate_limited', message: 'slow down' } });
    expect(lineAfter(sink, out, [started(2)])[0]).toBe('▸ agent    0.0s  attempt 2  150 in / 30 out  $0.0150');
    expect(lineAfter(sink, out, [running(2, 1000, 100, 0.115)])[0]).toBe('▸ agent    0.0s  attempt 2  1.0k in / 100 out  $0.1150');
    sink.close();
  });
});
