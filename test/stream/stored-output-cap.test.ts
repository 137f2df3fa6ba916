import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnInGroup } from '../../src/process/spawn.js';
import type { SpawnSpec } from '../../src/process/spawn-spec.js';
import { Redactor } from '../../src/redact.js';
import { STORED_OUTPUT_BYTES } from '../../src/stream/stored-output-cap.js';
import { scratchFolder } from '../support/scratch.js';

const dir = scratchFolder('wave-output-cap-');

/** A process printing `lines` lines of 100 bytes to stdout and one line to stderr, its output stored under `name`. */
function printing(name: string, lines: number, extra: Partial<SpawnSpec> = {}): SpawnSpec {
  const script = `const line = 'x'.repeat(99) + '\\n'; for (let i = 0; i < ${lines}; i++) process.stdout.write(line); console.error('done');`;
  return {
    command: process.execPath,
    args: ['-e', script],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdoutPath: join(dir, name, 'stdout'),
    stderrPath: join(dir, name, 'stderr'),
    redactor: new Redactor([]),
    graceMs: 500,
    ...extra,
  };
}

describe('the stored output of an attempt', () => {
  it('cuts stdout at the cap, ends it with a marker naming the cap and what was dropped, and still reads every line', async () => {
    let lines = 0;
    const spec = printing('small', 3000, { storedOutputBytes: 64 * 1024, onLine: (_line, stream) => (stream === 'stdout' ? lines++ : undefined) });
    const result = await spawnInGroup(spec);
    expect(result.exitCode).toBe(0);
    const stored = await readFile(spec.stdoutPath, 'utf8');
    expect(stored.startsWith('x'.repeat(99))).toBe(true);
    expect(stored).toContain(`[wave] stdout cut here: Wave stores at most 65536 bytes of each output stream per attempt; ${300_000 - 65_536} more bytes were not stored`);
    expect(Buffer.byteLength(stored)).toBeLessThan(65_536 + 200);
    expect(lines).toBe(3000);
    // A stream under the cap is stored whole, without a marker.
    expect(await readFile(spec.stderrPath, 'utf8')).toBe('done\n');
  });

  it("times what reached the file: a cut stream's last timing line is the stored size, its cut marker counted and the dropped bytes not", async () => {
    const timingPath = join(dir, 'timed', 'output.timing');
    const spec = printing('timed', 3000, { storedOutputBytes: 64 * 1024, timingPath });
    await spawnInGroup(spec);
    const stdoutLengths = (await readFile(timingPath, 'utf8'))
      .trim()
      .split('\n')
      .filter((line) => line.split(' ')[1] === 'stdout')
      .map((line) => Number(line.split(' ')[2]));
    expect(stdoutLengths.at(-1)).toBe((await stat(spec.stdoutPath)).size);
    expect(stdoutLengths.at(-2)).toBe(64 * 1024);
  });

  it('holds every attempt to the default cap of 100 MiB per stream', async () => {
    expect(STORED_OUTPUT_BYTES).toBe(100 * 1024 * 1024);
    const spec = printing('default', 1_100_000);
    await spawnInGroup(spec);
    expect((await stat(spec.stdoutPath)).size).toBeLessThan(STORED_OUTPUT_BYTES + 200);
    const file = await readFile(spec.stdoutPath);
    expect(file.subarray(STORED_OUTPUT_BYTES).toString()).toBe(
      `\n[wave] stdout cut here: Wave stores at most 100 MiB of each output stream per attempt; ${110_000_000 - STORED_OUTPUT_BYTES} more bytes were not stored\n`,
    );
  });
});
