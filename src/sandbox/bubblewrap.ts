import { launchLocal } from '../process/launch-local.js';
import { spawnInGroup } from '../process/spawn.js';
import type { SpawnResult, SpawnSpec } from '../process/spawn-spec.js';
import { inAttemptRoom, type RoomOptions } from './attempt-room.js';
import { ownerTag } from '../process/owner-tag.js';
import { createCgroupJail } from '../process/cgroup-limits.js';
import { diskLimitedLauncher } from './disk-limit.js';
import { PendingCleanups } from './pending-cleanups.js';
import { ReadyFifos } from './ready-fifos.js';
import { jailedLauncher } from '../process/jailed-launcher.js';
import { INSIDE_DIR } from './entry-script.js';
import { rootLinks, systemBinds, type Bind } from './host-paths.js';
import { SANDBOX_USER, writeIdentityFiles } from './identity-files.js';
import type { Sandbox, SandboxLimits, SandboxScope } from './types.js';

export interface BubblewrapOptions extends RoomOptions {
  /** The bwrap executable; default found on PATH. */
  binary?: string;
  limits: SandboxLimits;
  /** False when this host lets Wave make no cgroup: limits are then not enforced (preflight warned). */
  enforceLimits: boolean;
}

/** Jails made by this process: each attempt's cgroup name is unique. */
let jailsMade = 0;

/** Docker's default /dev/shm size, and room enough in /run for the mount point of the attempt's folder. */
const SHM_BYTES = 64 * 1024 * 1024;
const RUN_BYTES = 1024 * 1024;

/** The uid and gid inside: the caller's own, or an unprivileged user mapped back to root when Wave runs as root. */
function insideIdentity(): { uid: number; gid: number } {
  const uid = process.getuid?.() ?? SANDBOX_USER.uid;
  const gid = process.getgid?.() ?? SANDBOX_USER.gid;
  return uid === 0 ? { ...SANDBOX_USER } : { uid, gid };
}

/** The bwrap arguments of one attempt: nothing of the host but the system folders and the binds, no network, no capabilities. */
export function bubblewrapArgs(options: {
  binds: readonly Bind[];
  roomDir: string;
  /** Host folder seen at /tmp. */
  tmp: string;
  identity: { uid: number; gid: number; passwd: string; group: string };
  env: Record<string, string>;
  cwd: string;
}): string[] {
  const args = ['--unshare-all', '--unshare-user', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--clearenv'];
  args.push('--uid', String(options.identity.uid), '--gid', String(options.identity.gid));
  for (const bind of systemBinds()) args.push('--ro-bind', bind.path, bind.path);
  for (const [link, target] of rootLinks().links) args.push('--symlink', target, link);
  // Only the binds take what a step writes: /dev/shm and /run are small tmpfs (Docker's sizes), the root read-only.
  args.push('--dev', '/dev', '--size', String(SHM_BYTES), '--tmpfs', '/dev/shm', '--proc', '/proc', '--bind', options.tmp, '/tmp');
  args.push('--size', String(RUN_BYTES), '--tmpfs', '/run', '--dir', '/var/tmp');
  args.push('--ro-bind', options.identity.passwd, '/etc/passwd', '--ro-bind', options.identity.group, '/etc/group');
  for (const bind of options.binds) args.push(bind.writable ? '--bind' : '--ro-bind', bind.source ?? bind.path, bind.path);
  args.push('--ro-bind', options.roomDir, INSIDE_DIR, '--remount-ro', '/dev', '--remount-ro', '/', '--chdir', options.cwd);
  for (const [name, value] of Object.entries(options.env)) args.push('--setenv', name, value);
  return args;
}

/** The bubblewrap backend: each attempt in fresh namespaces, its processes all ending with bwrap (--die-with-parent). */
export class BubblewrapSandbox implements Sandbox {
  readonly backend = 'bubblewrap' as const;

  /** Attempts' room folders and emptied cgroups being removed. */
  private readonly cleanups = new PendingCleanups();
  /** The FIFOs its attempts' forwarders say they listen on. */
  private readonly fifos = new ReadyFifos();

  constructor(private readonly options: BubblewrapOptions) {}

  /** Runs the spec inside bwrap; resolves once the sandbox is gone, never rejects. */
  async spawn(spec: SpawnSpec, scope: SandboxScope, signal?: AbortSignal): Promise<SpawnResult> {
    // Numbered: child runs started together (a fanned-out step's workers) run the same step and attempt at once.
    // Made while the room is prepared; a jail that could not be made fails the attempt's start below.
    const jailing = this.options.enforceLimits ? createCgroupJail(`wave-${ownerTag()}-${scope.stepId}-${scope.attempt}-${++jailsMade}`, this.options.limits) : undefined;
    jailing?.catch(() => undefined);
    try {
      return await inAttemptRoom(spec, scope, { ...this.options, cleanups: this.cleanups, fifos: this.fifos }, signal, async (room) => {
        const id = insideIdentity();
        const [files, jail] = await Promise.all([writeIdentityFiles(room.dir, id.uid, id.gid, room.env.HOME!), jailing]);
        const args = bubblewrapArgs({ binds: room.binds, roomDir: room.dir, tmp: room.tmp, identity: { ...id, ...files }, env: room.env, cwd: spec.cwd });
        // bwrap itself gets only PATH: the step's environment is set inside with --setenv after --clearenv.
        const owner = { runId: scope.runId, stepId: scope.stepId };
        const bwrap = { ...spec, command: this.options.binary ?? 'bwrap', args: [...args, '--', ...room.argv], env: { PATH: spec.env.PATH ?? '/usr/bin:/bin' }, owner };
        return spawnInGroup(bwrap, signal, diskLimitedLauncher(jail ? jailedLauncher(jail) : launchLocal, room.writable, this.options.limits.diskMb));
      });
    } finally {
      // Emptied before spawnInGroup resolves (it kills what is left in it), or never used: removing it can wait.
      if (jailing) this.cleanups.add(jailing.then((jail) => jail.remove()));
    }
  }

  /** Waits for the ended attempts' folders and cgroups to be removed; nothing else outlives an attempt (bwrap's namespaces end with it). */
  async close(): Promise<void> {
    await this.cleanups.settle();
    await this.fifos.close();
  }
}
