import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/engine/steps/backoff.js';
import type { RetryPolicy } from '../../src/plan/plan-types.js';

/** The waits after failed attempts 1..n of a policy with the given curve, base and cap. */
function curve(backoff: RetryPolicy['backoff'], baseDelayMs: number, maxDelayMs: number, n = 6): number[] {
  const policy = { backoff, baseDelayMs, maxDelayMs };
  return Array.from({ length: n }, (_, i) => backoffDelay(policy, i + 1));
}

describe('backoffDelay', () => {
  it('waits the base delay every time when fixed', () => {
    expect(curve('fixed', 1500, 60_000)).toEqual([1500, 1500, 1500, 1500, 1500, 1500]);
  });

  it('grows by the base delay per failed attempt when linear', () => {
    expect(curve('linear', 1000, 60_000)).toEqual([1000, 2000, 3000, 4000, 5000, 6000]);
  });

  it('doubles from the base delay when exponential', () => {
    expect(curve('exponential', 200, 60_000)).toEqual([200, 400, 800, 1600, 3200, 6400]);
  });

  it('never waits longer than the max delay', () => {
    expect(curve('exponential', 1000, 5000)).toEqual([1000, 2000, 4000, 5000, 5000, 5000]);
    expect(curve('linear', 1000, 2500)).toEqual([1000, 2000, 2500, 2500, 2500, 2500]);
    expect(curve('fixed', 9000, 2500)).toEqual([2500, 2500, 2500, 2500, 2500, 2500]);
  });

  it('does not wait at all under the none preset (zero base, zero cap)', () => {
    expect(curve('fixed', 0, 0, 2)).toEqual([0, 0]);
  });

  it('stays at the cap long after the doubling would overflow it', () => {
    expect(backoffDelay({ backoff: 'exponential', baseDelayMs: 1000, maxDelayMs: 30_000 }, 1100)).toBe(30_000);
  });
});
