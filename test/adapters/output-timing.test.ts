import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputTiming } from '../../src/process/output-timing.js';

describe('OutputTiming', () => {
  it('keeps every piece of a flood, in order, with each file length after it, once both streams end', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'wave-timing-')), 'output.timing');
    const timing = new OutputTiming(path);
    for (let i = 1; i <= 20_000; i++) timing.record(i % 2 ? 'stdout' : 'stderr', 3);
    await timing.end();
    await timing.end();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(20_000);
    expect(lines[0]).toMatch(/^\d+ stdout 3$/);
    expect(lines[1]).toMatch(/^\d+ stderr 3$/);
    expect(lines.at(-1)).toMatch(/^\d+ stderr 30000$/);
  });

  it('keeps the pieces that came while a write was in flight, and makes no file for a silent process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wave-timing-'));
    const timing = new OutputTiming(join(dir, 'output.timing'));
    timing.record('stdout', 5);
    await new Promise((resolve) => setImmediate(resolve));
    timing.record('stdout', 5);
    timing.record('stderr', 1);
    await Promise.all([timing.end(), timing.end()]);
    expect(readFileSync(join(dir, 'output.timing'), 'utf8').replace(/^\d+ /gm, '')).toBe('stdout 5\nstdout 10\nstderr 1\n');
    const silent = new OutputTiming(join(dir, 'silent.timing'));
    await Promise.all([silent.end(), silent.end()]);
    expect(existsSync(join(dir, 'silent.timing'))).toBe(false);
  });
});
