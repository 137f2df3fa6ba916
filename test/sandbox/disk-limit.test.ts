import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchLocal } from '../../src/process/launch-local.js';
import { spawnInGroup } from '../../src/process/spawn.js';
import { Redactor } from '../../src/redact.js';
import { diskLimitedLauncher } from '../../src/sandbox/disk-limit.js';
import { scratchFolder } from '../support/scratch.js';

const dir = scratchFolder('wave-disk-limit-');

/** Runs `script` in a folder that already holds 5 MB, limited to 1 MB more (in it and in a second folder). */
async function runLimited(name: string, script: string) {
  const folder = join(dir, name, 'workspace');
  const other = join(dir, name, 'home');
  mkdirSync(folder, { recursive: true });
  mkdirSync(other, { recursive: true });
  writeFileSync(join(folder, 'checkout'), Buffer.alloc(5 * 1024 * 1024, 1));
  const spec = {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: folder,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', OTHER: other },
    stdoutPath: join(dir, name, 'stdout'),
    stderrPath: join(dir, name, 'stderr'),
    redactor: new Redactor([]),
    graceMs: 500,
  };
  return spawnInGroup(spec, undefined, diskLimitedLauncher(launchLocal, [folder, other], 1));
}

describe('the disk limit of a step', () => {
  it('counts only what the step adds: a folder that was large before it started is within the limit', async () => {
    const result = await runLimited('within', 'head -c 524288 /dev/zero > added');
    expect(result.exitCode).toBe(0);
    expect(result.limitExceeded).toBeUndefined();
  });

  it('stops a step past the limit while it runs, across its folders, and names runtime.sandbox.limits.disk_mb', async () => {
    const started = Date.now();
    const result = await runLimited('past', 'head -c 700000 /dev/zero > added && head -c 700000 /dev/zero > "$OTHER/added" && sleep 60');
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.exitCode).toBeNull();
    expect(result.limitExceeded).toBe('disk limit of 1 MB reached: the step added 1 MB to its workspace, HOME and /tmp (runtime.sandbox.limits.disk_mb)');
  });

  it('finds a step that filled its folders and exited between two measures', async () => {
    const result = await runLimited('quick', 'head -c 2097152 /dev/zero > added');
    expect(result.exitCode).toBe(0);
    expect(result.limitExceeded).toMatch(/^disk limit of 1 MB reached/);
  });
});
