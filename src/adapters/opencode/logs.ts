import type { StreamEvent } from '../types.js';

/** OpenCode's own retries of a failed model request, at most five (1.18.33, `session/retry.ts`). */
const MAX_RETRIES = 5;

/**
 * The longest OpenCode waits before its next try of a request that failed `attempt` times without a retry-after
 * header (1.18.33: 2 s doubling plus up to 25 % jitter; its 30 s cap applies only to errors without any response).
 */
export function openCodeRetryDelayMs(attempt: number): number {
  return Math.ceil(2_000 * 2 ** (attempt - 1) * 1.25);
}

/**
 * The error of a failed model request of the main session in one stderr line of `--print-logs`, else undefined.
 * The title request (`small=true`) is retried inside the AI SDK and does not hold up the run.
 */
export function openCodeStreamError(line: string): string | undefined {
  if (!line.includes('message="stream error"') || line.includes('small=true')) return undefined;
  return /error\.error="((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? 'stream error';
}

/** Counts OpenCode's failed requests in its stderr log; each one is a retry event with the longest wait before the next try. */
export class OpenCodeRetryLog {
  private failures = 0;

  /** The retry event of one stderr line, if it reports a failed request. */
  line(line: string): StreamEvent[] {
    const message = openCodeStreamError(line);
    if (message === undefined) return [];
    this.failures += 1;
    // Past its last retry OpenCode gives up at once: its `error` event on stdout follows.
    if (this.failures > MAX_RETRIES) return [];
    return [{ kind: 'retry', attempt: this.failures, delayMs: openCodeRetryDelayMs(this.failures), message }];
  }

  /** A finished model step: OpenCode counts the retries of the next request from one again. */
  reset(): void {
    this.failures = 0;
  }
}
