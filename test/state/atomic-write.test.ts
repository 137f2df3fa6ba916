import { execa } from 'execa';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { EVENT_VERSION } from '../../src/events.js';
import { RunStore } from '../../src/state/run-store.js';
import { sampleRecord, sampleStep, tempDir } from './sample-run.js';

// A reader in another process: parses run.json as fast as it can until told to stop.
const READER = `
const { readFileSync, existsSync } = require('node:fs');
const [file, stopFile] = process.argv.slice(1);
let reads = 0, torn = 0; const seen = new Set();
while (!existsSync(stopFile)) {
  let text;
  try { text = readFileSync(file, 'utf8'); } catch { continue; }
  try { seen.add(JSON.parse(text).eventCount); reads++; } catch { torn++; }
  if (reads === 1) process.stdout.write('ready\\n');
}
process.stdout.write(JSON.stringify({ reads, torn, versions: seen.size }) + '\\n');
`;

describe('run.json atomic writes', () => {
  it('a reader polling during many updates never sees invalid JSON', async () => {
    const store = RunStore.create(tempDir(), sampleRecord('atomic', { input: '0' }, [sampleStep('a'), sampleStep('b')]));
    const file = join(store.dir, 'run.json');
    const stopFile = join(store.dir, 'stop');
    const reader = execa(process.execPath, ['-e', READER, file, stopFile], { timeout: 120_000 });
    await new Promise<void>((resolve) => reader.stdout.once('data', () => resolve()));
    for (let i = 1; i <= 800; i++) {
      // Vary the size so a torn write would show as a truncated or mixed document.
      const reason = 'x'.repeat((i * 37) % 5000);
      store.appendEvent({ v: EVENT_VERSION, ts: new Date().toISOString(), runId: 'atomic', type: 'step_skipped', stepId: 'a', reason });
      // Force every snapshot to disk: bursts are otherwise coalesced.
      store.flush();
      if (i % 50 === 0) await tick();
    }
    writeFileSync(stopFile, '');
    const result = JSON.parse((await reader).stdout.trim().split('\n').at(-1)!);
    expect(result.torn).toBe(0);
    expect(result.reads).toBeGreaterThan(0);
    expect(result.versions).toBeGreaterThan(1);
    // No temporary files are left behind.
    expect(readdirSync(store.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
