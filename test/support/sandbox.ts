import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createKillCgroup } from '../../src/process/cgroup-limits.js';
import { DEFAULT_SANDBOX_IMAGE } from '../../src/sandbox/defaults.js';
import { requirementMet } from './requirement.js';

export type TestBackend = 'bubblewrap' | 'docker';

function works(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Whether a backend can run here; absent, its tests skip naming what to install (and fail under CI=true). */
export function backendAvailable(backend: TestBackend): boolean {
  const socat = existsSync('/usr/bin/socat');
  if (backend === 'bubblewrap') {
    return requirementMet(
      'bubblewrap',
      works('bwrap', ['--ro-bind', '/', '/', '--unshare-all', '--', '/bin/true']) && socat,
      'install bubblewrap and socat (apt-get install bubblewrap socat)',
    );
  }
  return requirementMet(
    'docker',
    works('docker', ['image', 'inspect', DEFAULT_SANDBOX_IMAGE]) && socat,
    `install docker.io and socat, start dockerd and build the image with \`wave sandbox image\` (bash .ci/sandbox-up.sh does all of it)`,
  );
}

/** Whether a test can start a Docker daemon of its own (test/support/own-dockerd.mjs): dockerd and socat installed, running as root. */
export function ownDockerdAvailable(): boolean {
  const installed = existsSync('/usr/sbin/dockerd') || existsSync('/usr/bin/dockerd');
  return requirementMet(
    'a Docker daemon of the test',
    installed && existsSync('/usr/bin/socat') && process.getuid?.() === 0,
    'run as root with docker.io and socat installed (bash .ci/sandbox-up.sh)',
  );
}

/** The runtime.sandbox block of a test manifest, indented for `runtime:`. */
export function sandboxRuntime(backend: TestBackend | 'none', extra = ''): string {
  return `  sandbox:\n    backend: ${backend}\n${extra}`;
}

/** A number for `sleep` that no other process on the machine carries in its arguments. */
export const marker = (): string => `${3000 + Math.floor(Math.random() * 6000)}.${randomBytes(3).readUIntBE(0, 3)}`;

/** The `ps` lines of processes whose command line holds `text`: what a step's escaped processes would show. */
export function processesWith(text: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(text) && !line.includes('ps -eo'));
}

/**
 * Whether this host lets Wave give a step on the host a cgroup v2 of its own (cgroup.kill); absent, the tests that
 * need it skip saying what to do and what happens `without` it (and fail under CI=true).
 */
export async function killCgroupsAvailable(without: string): Promise<boolean> {
  let works = false;
  try {
    await (await createKillCgroup(`wave-test-probe-${process.pid}`)).remove();
    works = true;
  } catch {
    // No writable cgroup v2 here.
  }
  return requirementMet('a writable cgroup v2 with cgroup.kill', works, `run as root on Linux 5.14 or later with cgroup2 mounted; without it ${without}`);
}
