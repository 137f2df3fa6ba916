import { describe, expect, it } from 'vitest';
import { formatBytes, formatCost, formatCount, formatDuration, formatTokens } from '../../src/report/format.js';

describe('format helpers', () => {
  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0.0s');
    expect(formatDuration(1234)).toBe('1.2s');
    expect(formatDuration(59_940)).toBe('59.9s');
    expect(formatDuration(59_960)).toBe('1m00s');
    expect(formatDuration(184_000)).toBe('3m04s');
    expect(formatDuration(3_599_600)).toBe('1h00m');
    expect(formatDuration(3_720_000)).toBe('1h02m');
    expect(formatDuration(-5)).toBe('0.0s');
  });

  it('formats counts', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(999.6)).toBe('1.0k');
    expect(formatCount(12_345)).toBe('12.3k');
    expect(formatCount(999_960)).toBe('1.0M');
    expect(formatCount(4_560_000)).toBe('4.6M');
  });

  it('formats costs', () => {
    expect(formatCost(0)).toBe('$0.0000');
    expect(formatCost(0.0123)).toBe('$0.0123');
    expect(formatCost(0.00001)).toBe('<$0.0001');
    expect(formatCost(1.234)).toBe('$1.23');
  });

  it('formats tokens, with cache traffic only when there was some', () => {
    expect(formatTokens({ input: 12_345, output: 678, cacheRead: 0, cacheWrite: 0 })).toBe('12.3k in / 678 out');
    expect(formatTokens({ input: 10, output: 5, cacheRead: 40_000, cacheWrite: 2_000 })).toBe('10 in / 5 out (cache 42.0k)');
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.0 MB');
  });
});
