import { describe, expect, it } from 'vitest';
import { abortFailure } from '../../src/process/spawn-failure.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../../src/adapters/types.js';
import { NO_TOKENS } from '../../src/core/tokens.js';
import { runAttempt } from '../../src/engine/attempt/attempt.js';

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
  runAttempt(new PacedRunner(script), {} as AdapterRunConfig, { timeoutMs: 60_000, stallMs: 300 }, new AbortController().signal, () => {});
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
