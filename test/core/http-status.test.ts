import { describe, expect, it } from 'vitest';
import { httpStatusClass, retryAfterMs } from '../../src/core/http-status.js';

describe('httpStatusClass', () => {
  it('decides auth, rate limit and server failures, and leaves the other statuses to the caller', () => {
    expect([401, 403, 429, 500, 503, 599].map(httpStatusClass)).toEqual(['auth_failed', 'auth_failed', 'rate_limited', 'server_error', 'server_error', 'server_error']);
    expect([undefined, 200, 400, 404, 600].map(httpStatusClass)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds or an HTTP date, and nothing else', () => {
    expect(retryAfterMs('2.5')).toBe(2500);
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs(new Date(1_000).toUTCString(), 4_000)).toBe(0);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
