import { readFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { sleep } from '../core/sleep.js';
import type { LaunchedProcess, Launcher } from '../adapters/launched-process.js';
import { spawnInGroup } from '../adapters/spawn.js';
import type { SpawnResult, SpawnSpec } from '../adapters/spawn-spec.js';
import { sandboxError, inAttemptRoom, type AttemptRoom, type RoomOptions } from './attempt-room.js';
import { attachContainer } from './container-attach.js';
import { INSIDE_DIR } from './entry-script.js';
import { systemBinds } from './host-paths.js';
import { writeIdentityFiles } from './identity-files.js';
import type { Sandbox, SandboxLimits, SandboxScope } from './types.js';

const MIB = 1024 * 1024;
/** The label every step container carries, so a resume can remove what a killed run left. */
export const RUN_LABEL = 'wave.run';
/** Docker writes its own /etc/hosts into every container; a bind over it would fight that. */
const DOCKER_MANAGED = new Set(['/etc/hosts']);

export interface DockerSandboxOptions extends RoomOptions {
  docker: Docker;
  image: string;
  limits: SandboxLimits;
}

/** The container of one attempt: no network, no capabilities, read-only root, the room's binds, the step's limits. */
async function createStepContainer(options: DockerSandboxOptions, spec: SpawnSpec, scope: SandboxScope, room: AttemptRoom): Promise<Docker.Container> {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const files = await writeIdentityFiles(room.dir, uid, gid, room.env.HOME!);
  const withStdin = spec.stdin !== undefined;
  const binds = [...systemBinds().filter((bind) => !DOCKER_MANAGED.has(bind.path)), ...room.binds].map((bind) => `${bind.path}:${bind.path}:${bind.writable ? 'rw' : 'ro'}`);
  binds.push(`${room.dir}:${INSIDE_DIR}:ro`, `${files.passwd}:/etc/passwd:ro`, `${files.group}:/etc/group:ro`);
  return options.docker.createContainer({
    Image: options.image,
    Cmd: [...room.argv],
    Env: Object.entries(room.env).map(([name, value]) => `${name}=${value}`),
    WorkingDir: spec.cwd,
    // The caller's own uid:gid, so what the step writes in the workspace belongs to the user.
    User: `${uid}:${gid}`,
    Labels: { [RUN_LABEL]: scope.runId, 'wave.step': scope.stepId, 'wave.attempt': String(scope.attempt) },
    AttachStdin: withStdin,
    OpenStdin: withStdin,
    StdinOnce: withStdin,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    HostConfig: {
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: true,
      // No init (docker-init is not everywhere): the step's program is pid 1, so when it exits the kernel ends
      // everything else in the container, setsid'd and double-forked daemons included.
      Init: false,
      Binds: binds,
      Tmpfs: { '/tmp': 'rw,nosuid,nodev,mode=1777' },
      Memory: options.limits.memoryMb * MIB,
      MemorySwap: options.limits.memoryMb * MIB,
      PidsLimit: options.limits.pids,
      NanoCpus: Math.round(options.limits.cpus * 1e9),
    },
  });
}

const PIDS_POLL_MS = 100;

/**
 * Watches the pids limit counter of a running container's cgroup (v1 or v2): the runtime deletes the cgroup when
 * the container stops, so it has to be read while the step runs. Best effort: a hit shorter than a poll is missed.
 */
function watchPidsLimit(id: string): { hit: () => boolean; stop: () => void } {
  const files = [`/sys/fs/cgroup/pids/docker/${id}/pids.events`, `/sys/fs/cgroup/system.slice/docker-${id}.scope/pids.events`];
  let hit = false;
  const poll = async () => {
    for (const file of files) if (/^max [1-9]/m.test(await readFile(file, 'utf8').catch(() => ''))) hit = true;
  };
  const timer = setInterval(() => void poll(), PIDS_POLL_MS).unref();
  return { hit: () => hit, stop: () => clearInterval(timer) };
}

const OOM_RECHECKS = 5;

/**
 * Whether the kernel's OOM killer ended the container. Docker learns of an OOM kill from an event that may land
 * after the exit is reported, so a SIGKILL exit (137) is looked at again for a short while.
 */
async function oomKilled(container: Docker.Container, code: number | null): Promise<boolean> {
  for (let check = 0; ; check++) {
    const state = await container.inspect().then(
      (info) => info.State,
      () => undefined,
    );
    if (state?.OOMKilled) return true;
    if (code !== 137 || check >= OOM_RECHECKS) return false;
    await sleep(100, { ref: false });
  }
}

/** A launcher that runs the spec as a container: attached before it starts, so no output is lost. */
function containerLauncher(options: DockerSandboxOptions, scope: SandboxScope, room: AttemptRoom, removals: Set<Promise<void>>): Launcher {
  return async (spec) => {
    let container: Docker.Container;
    try {
      container = await createStepContainer(options, spec, scope, room);
    } catch (error) {
      return { error: sandboxError(error) };
    }
    const remove = () =>
      container.remove({ force: true }).then(
        () => undefined,
        () => undefined,
      );
    let socket;
    try {
      socket = await attachContainer(options.docker, container.id, spec.stdin !== undefined);
      await container.start();
    } catch (error) {
      socket?.destroy();
      await remove();
      return { error: sandboxError(error) };
    }
    const pids = watchPidsLimit(container.id);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    options.docker.modem.demuxStream(socket, stdout, stderr);
    socket.on('error', () => undefined); // EPIPE when the container exits before its stdin is written
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    void closed.then(() => {
      stdout.end();
      stderr.end();
    });
    const exited = container.wait().then(
      (result: { StatusCode?: number }) => [result.StatusCode ?? null, null] as [number | null, NodeJS.Signals | null],
      () => [null, 'SIGKILL'] as [number | null, NodeJS.Signals | null],
    );
    let done = false;
    void exited.then(() => {
      done = true;
      pids.stop();
    });
    const launched: LaunchedProcess = {
      stdin: spec.stdin !== undefined ? socket : null,
      stdout,
      stderr,
      exited,
      closed,
      startError: () => undefined,
      terminate: async (graceMs) => {
        await container.kill({ signal: 'SIGTERM' }).catch(() => undefined);
        await Promise.race([exited, sleep(graceMs, { ref: false })]);
        if (!done) await container.kill({ signal: 'SIGKILL' }).catch(() => undefined);
        await exited;
      },
      hasLeftovers: async () => false,
      limitExceeded: async () => {
        const [code] = await exited;
        if (code === 0) return undefined;
        if (await oomKilled(container, code)) return `memory limit of ${options.limits.memoryMb} MB reached (runtime.sandbox.limits.memory_mb)`;
        if (pids.hit()) return `process limit of ${options.limits.pids} reached (runtime.sandbox.limits.pids)`;
        return undefined;
      },
      // The container has stopped: its removal need not hold up the step, only the end of the run.
      release: async () => {
        const removal = remove();
        removals.add(removal);
        void removal.then(() => removals.delete(removal));
      },
    };
    return { process: launched };
  };
}

/** The docker backend: one container per attempt, labelled with its run and step, removed when the attempt ends. */
export class DockerSandbox implements Sandbox {
  readonly backend = 'docker' as const;

  private readonly removals = new Set<Promise<void>>();

  constructor(private readonly options: DockerSandboxOptions) {}

  /** Runs the spec in a container; resolves once the container has stopped (it is removed by close()), never rejects. */
  spawn(spec: SpawnSpec, scope: SandboxScope, signal?: AbortSignal): Promise<SpawnResult> {
    return inAttemptRoom(spec, scope, this.options, signal, (room) => spawnInGroup(spec, signal, containerLauncher(this.options, scope, room, this.removals)));
  }

  /** Waits for every stopped container of the run to be removed. */
  async close(): Promise<void> {
    await Promise.all(this.removals);
  }
}

/** Removes every container of a run (a killed `wave run` leaves them running); returns how many. Never rejects. */
export async function removeRunContainers(docker: Docker, runId: string): Promise<number> {
  try {
    const found = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${runId}`] } });
    await Promise.all(
      found.map((info) =>
        docker
          .getContainer(info.Id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
    );
    return found.length;
  } catch {
    return 0;
  }
}
