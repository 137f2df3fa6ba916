import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutputMeter } from '../../src/stream/output-meter.js';

describe('OutputMeter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports at most once per interval, with a trailing report, and the rest on stop', () => {
    const reports: number[] = [];
    const meter = new OutputMeter((bytes) => reports.push(bytes), 250);
    meter.add(10); // the first burst is reported at once
    meter.add(5);
    meter.add(5);
    expect(reports).toEqual([10]);
    vi.advanceTimersByTime(249);
    expect(reports).toEqual([10]);
    vi.advanceTimersByTime(1);
    expect(reports).toEqual([10, 10]);
    vi.advanceTimersByTime(1000);
    meter.add(7); // after a quiet spell, reported at once again
    meter.add(3);
    meter.stop();
    expect(reports).toEqual([10, 10, 7, 3]);
    vi.advanceTimersByTime(1000);
    expect(reports).toEqual([10, 10, 7, 3]);
  });
});
