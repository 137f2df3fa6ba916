import { existsSync, lstatSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownerIsGone, ownerTag } from '../../src/process/owner-tag.js';
import { processStartTime } from '../../src/process/liveness.js';
import { sweepLeftovers } from '../../src/sandbox/leftovers.js';
import { sweepBefore } from '../../src/cli/sweep-before.js';
import { FIFO_POOL_PREFIX } from '../../src/sandbox/ready-fifos.js';

// The sweep reads the OS temp folder: each test points it at a fresh one of its own.
const previous = process.env.TMPDIR;
const base = tmpdir();
let temp: string;
beforeEach(() => {
  temp = mkdtempSync(join(base, 'wave-sweep-'));
  process.env.TMPDIR = temp;
});
afterEach(() => {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
});

/** A pid no process has (pids stay below 2^22 on Linux). */
const GONE_PID = 4_194_304 + 17;

describe('the sweep of what gone Wave processes left', () => {
  it('tells a gone maker from a live one by pid and start time, and never claims a name without a tag', () => {
    expect(ownerIsGone(`wave-sbx-${ownerTag()}-abc123`, 'wave-sbx-')).toBe(false);
    expect(ownerIsGone(`wave-sbx-${GONE_PID}-1234-abc123`, 'wave-sbx-')).toBe(true);
    // This process's pid with another start time: the pid was reused, its maker is gone.
    expect(ownerIsGone(`wave-sbx-${process.pid}-${processStartTime(process.pid)! + 1}-abc123`, 'wave-sbx-')).toBe(true);
    expect(ownerIsGone('wave-sbx-abc123', 'wave-sbx-')).toBe(false);
    expect(ownerIsGone(`other-${GONE_PID}-1234-x`, 'wave-sbx-')).toBe(false);
  });

  it("removes a gone Wave's attempt folders only: a live one's, an untagged one and a symlink stay", async () => {
    const gone = join(temp, `wave-sbx-${GONE_PID}-1234-aaaaaa`);
    const live = join(temp, `wave-sbx-${ownerTag()}-bbbbbb`);
    const untagged = join(temp, 'wave-sbx-cccccc');
    const target = join(temp, 'not-wave');
    const link = join(temp, `wave-sbx-${GONE_PID}-1234-dddddd`);
    for (const dir of [gone, live, untagged, target]) mkdirSync(dir);
    writeFileSync(join(gone, 'passwd'), 'wave:x:1000:1000::/home:/bin/sh\n');
    writeFileSync(join(target, 'keep'), '');
    symlinkSync(target, link);
    await sweepLeftovers();
    expect(existsSync(gone)).toBe(false);
    expect([live, untagged, join(target, 'keep')].map(existsSync)).toEqual([true, true, true]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("removes a gone Wave's FIFO pool, and leaves a live one's", async () => {
    const gone = join(temp, `${FIFO_POOL_PREFIX}${GONE_PID}-1234-ffffff`);
    const live = join(temp, `${FIFO_POOL_PREFIX}${ownerTag()}-gggggg`);
    for (const dir of [gone, live]) mkdirSync(dir);
    await sweepLeftovers();
    expect([gone, live].map(existsSync)).toEqual([false, true]);
  });

  it('sweeps before run, resume and cancel, and before no other command', async () => {
    const gone = join(temp, `wave-sbx-${GONE_PID}-1234-eeeeee`);
    mkdirSync(gone);
    for (const command of ['status', 'runs', 'logs', 'validate']) await sweepBefore(command);
    expect(existsSync(gone)).toBe(true);
    for (const command of ['run', 'resume', 'cancel']) {
      mkdirSync(gone, { recursive: true });
      await sweepBefore(command);
      expect(existsSync(gone), command).toBe(false);
    }
  });
});
