import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/core/sleep.js';

describe('sleep', () => {
  it('resolves true once the time has passed', async () => {
    const started = Date.now();
    expect(await sleep(30)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('resolves false at once when its signal aborts, before or during the wait', async () => {
    expect(await sleep(10_000, { signal: AbortSignal.abort() })).toBe(false);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    expect(await sleep(10_000, { signal: controller.signal })).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
