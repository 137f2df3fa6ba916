import { writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { ownerTag } from './owner-tag.js';
import { createKillCgroup } from './cgroup-limits.js';
import { jailedLauncher } from './jailed-launcher.js';
import { resolveBinary } from './binary.js';
import { launchLocal } from './launch-local.js';
import type { Launcher } from './launched-process.js';
import type { SpawnSpec } from './spawn-spec.js';

let cgroupsMade = 0;
/** The cgroup.kill files of the steps running now: if Wave exits first, what they hold is killed with it. */
const liveKillFiles = new Set<string>();

/** Kills every live step's cgroup at once; runs as Wave exits, so it is synchronous. */
function killLiveCgroups(): void {
  for (const file of liveKillFiles) {
    try {
      writeFileSync(file, '1');
    } catch {
      // Gone already.
    }
  }
}

/** Whether the spec's command is an executable the shell's `exec` finds as spawn would: one that is not keeps its own start error. */
function startable(spec: SpawnSpec): boolean {
  if (spec.command.includes('/')) return resolveBinary(spec.command, spec.env, spec.cwd) !== undefined;
  return (spec.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && resolveBinary(join(dir, spec.command), spec.env, spec.cwd) !== undefined);
}

/**
 * Starts a spec on the host in a cgroup of its own when this host lets Wave make one (cgroup v2 with cgroup.kill),
 * so every process it starts ends with its step, even one that left its session and cleared its environment.
 * Elsewhere it starts as launchLocal does, and the /proc sweep of the step's environment is what ends strays.
 */
export const launchInOwnCgroup: Launcher = async (spec) => {
  if (!startable(spec)) return launchLocal(spec);
  const jail = await createKillCgroup(`wave-${ownerTag()}-host-${++cgroupsMade}`).catch(() => undefined);
  if (!jail) return launchLocal(spec);
  const started = await jailedLauncher(jail)(spec);
  if (!('process' in started)) {
    await jail.remove();
    return started;
  }
  const inner = started.process;
  if (liveKillFiles.size === 0) process.once('exit', killLiveCgroups);
  const killFile = join(dirname(jail.procsFiles[0]!), 'cgroup.kill');
  liveKillFiles.add(killFile);
  const release = async () => {
    await jail.remove();
    liveKillFiles.delete(killFile);
    if (liveKillFiles.size === 0) process.off('exit', killLiveCgroups);
    await inner.release();
  };
  return { process: { ...inner, release } };
};
