import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKillCgroup } from '../../src/process/cgroup-limits.js';
import { killCgroupsAvailable } from '../support/sandbox.js';
import { waitFor } from '../support/wait.js';
import { isRunning } from './processes.js';

const killCgroups = await killCgroupsAvailable("a step's cgroup is neither made nor removed");
let made = 0;
const name = () => `wave-test-kill-${process.pid}-${++made}`;

describe.runIf(killCgroups)('createKillCgroup: removing a step cgroup', () => {
  it('removes an empty cgroup at once', async () => {
    const jail = await createKillCgroup(name());
    const folder = dirname(jail.procsFiles[0]!);
    expect(await jail.populated()).toBe(false);
    await jail.remove();
    expect(existsSync(folder)).toBe(false);
  });

  it('kills what the cgroup still holds before it removes it', async () => {
    const jail = await createKillCgroup(name());
    const folder = dirname(jail.procsFiles[0]!);
    const child = spawn('/bin/sleep', ['300'], { stdio: 'ignore', detached: true });
    child.unref();
    const pid = child.pid!;
    writeFileSync(jail.procsFiles[0]!, String(pid));
    expect(await jail.populated()).toBe(true);
    await jail.remove();
    await waitFor(() => !isRunning(pid), `sleep ${pid} to die`);
    expect(isRunning(pid)).toBe(false);
    expect(existsSync(folder)).toBe(false);
  });
});
