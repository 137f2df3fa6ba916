import { describe, expect, it } from 'vitest';
import { newRunId, slugPipelineName } from '../../src/state/run-id.js';

describe('newRunId', () => {
  it('is <pipeline>-<YYYYMMDD-HHMMSS>-<4 hex> in UTC', () => {
    const id = newRunId('hello', new Date('2024-05-01T09:08:07.654Z'));
    expect(id).toMatch(/^hello-20240501-090807-[0-9a-f]{4}$/);
  });

  it('sorts by time for one pipeline', () => {
    const times = ['2023-12-31T23:59:59Z', '2024-01-01T00:00:00Z', '2024-01-01T00:00:01Z', '2024-10-02T03:04:05Z'];
    const ids = times.map((t) => newRunId('review', new Date(t)));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differs between two runs started in the same second', () => {
    const now = new Date('2024-05-01T09:08:07Z');
    const ids = new Set(Array.from({ length: 50 }, () => newRunId('hello', now)));
    expect(ids.size).toBeGreaterThan(40);
  });

  it('slugs the pipeline name to [a-z0-9-]', () => {
    expect(slugPipelineName('My Review_Pipeline.v2')).toBe('my-review-pipeline-v2');
    expect(slugPipelineName('--Ünïcode!!  name--')).toBe('n-code-name');
    expect(slugPipelineName('!!!')).toBe('run');
    expect(slugPipelineName('x'.repeat(100))).toHaveLength(48);
    expect(newRunId('Fix Bugs!', new Date('2024-01-02T03:04:05Z'))).toMatch(/^fix-bugs-20240102-030405-[0-9a-f]{4}$/);
  });
});
