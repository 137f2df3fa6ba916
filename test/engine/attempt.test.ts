import { describe, expect, it } from 'vitest';
import { abortFailure } from '../../src/process/spawn-failure.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../../src/adapters/types.js';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import { runAttempt } from '../../src/engine/attempt/attempt.js';
import { ManualClock } from '../support/manual-clock.js';

/** A runner that emits events with quiet pauses between them (numbers are milliseconds of silence), then succeeds. */
class PacedRunner implements AdapterRunner {
  readonly type = 'opencode' as const;
  constructor(private readonly script: (StreamEvent | number)[]) {}

  async run(_config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    const result = (fields: Partial<AdapterResult>): AdapterResult => ({
      ok: true,
      exitCode: 0,
      signal: null,
      text: 'done',
      tokens: { ...NO_TOKENS },
      skippedLines: 0,
      outputTail: '',
      durationMs: 0,
      ...fields,
    });
    for (const step of this.script) {
      if (typeof step !== 'number') onEvent(step);
      else await new Promise<void>((resolve) => (signal.aborted ? resolve() : (setTimeout(resolve, step), signal.addEventListener('abort', () => resolve(), { once: true }))));
      if (signal.aborted) return result({ ok: false, exitCode: null, failure: abortFailure(signal.reason) });
    }
    return result({});
  }
}

const attempt = (script: (StreamEvent | number)[]) =>
  runAttempt({
    runner: new PacedRunner(script),
    config: {} as AdapterRunConfig,
    limits: { timeoutMs: 60_000, stallMs: 300 },
    signal: new AbortController().signal,
    onEvent: () => {},
  });
const text: StreamEvent = { kind: 'text', text: 'hi' };

describe('the stall watchdog', () => {
  it('ends an attempt quiet for longer than stall_timeout as stalled', async () => {
    const result = await attempt([text, 600, text]);
    expect(result.failure?.class).toBe('stalled');
  });

  it("waits out a retry's announced backoff before counting silence", async () => {
    const result = await attempt([text, { kind: 'retry', attempt: 1, delayMs: 1_000 }, 700, text]);
    expect(result.ok).toBe(true);
  });

  it('counts silence again once the announced wait is over', async () => {
    const result = await attempt([{ kind: 'retry', attempt: 1, delayMs: 200 }, 150, { kind: 'output', bytes: 10 }, 100, text, 600, text]);
    expect(result.failure?.class).toBe('stalled');
  });
});

/** A runner that says one thing and then waits, silent, until it is stopped. */
class SilentRunner implements AdapterRunner {
  readonly type = 'opencode' as const;
  async run(_config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    onEvent(text);
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    return { ok: false, exitCode: null, signal: null, text: '', tokens: { ...NO_TOKENS }, skippedLines: 0, outputTail: '', durationMs: 0, failure: abortFailure(signal.reason) };
  }
}

describe('the time an attempt is measured in is the clock it is given', () => {
  const onClock = (clock: ManualClock, limits: { timeoutMs: number; stallMs: number }) =>
    runAttempt({ runner: new SilentRunner(), config: {} as AdapterRunConfig, limits, signal: new AbortController().signal, onEvent: () => {}, clock });

  it('stalls when the clock passes the stall window, and not a moment before', async () => {
    const clock = new ManualClock();
    let settled = false;
    const running = onClock(clock, { timeoutMs: 3_600_000, stallMs: 600_000 }).finally(() => (settled = true));
    clock.advance(599_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    clock.advance(1);
    expect((await running).failure?.class).toBe('stalled');
    // Both timers are gone once the attempt is over.
    expect(clock.waiting).toBe(0);
  });

  it('times out at its time limit on the clock, an hour passing at once', async () => {
    const clock = new ManualClock();
    const running = onClock(clock, { timeoutMs: 3_600_000, stallMs: 0 });
    clock.advance(3_600_000);
    const result = await running;
    expect(result.failure).toMatchObject({ class: 'timeout', message: 'step ran past its time limit of 60 min' });
  });
});
