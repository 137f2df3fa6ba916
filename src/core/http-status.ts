import type { FailureClass } from './errors/error-codes.js';

/** The failure class of an HTTP status a model API answered with, when the status alone decides one. */
export function httpStatusClass(status: number | undefined): FailureClass | undefined {
  if (status === undefined) return undefined;
  if (status === 401 || status === 403) return 'auth_failed';
  if (status === 429) return 'rate_limited';
  if (status >= 500 && status < 600) return 'server_error';
  return undefined;
}

/** Milliseconds from a retry-after value: seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Why a fetch() failed: its cause's code (ECONNREFUSED) or message where Node gives one, else its own message. */
export function fetchFailureCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
