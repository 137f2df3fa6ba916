import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { sleep } from '../../core/sleep.js';
import type { LaunchedProcess, Launcher } from '../../process/launched-process.js';
import { spawnInGroup } from '../../process/spawn.js';
import type { SpawnResult, SpawnSpec } from '../../process/spawn-spec.js';
import { sandboxError, inAttemptRoom, type AttemptRoom, type RoomOptions } from '../attempt-room.js';
import { attachContainer } from './container-attach.js';
import { SANDBOX_DOWN_CODE } from '../../core/errors/failure.js';
import { diskLimitedLauncher } from '../disk-limit.js';
import { PendingCleanups } from '../pending-cleanups.js';
import { ReadyFifos } from '../ready-fifos.js';
import { callSignal, daemonDownError, daemonFault, isDaemonFault, killOrphanedContainer, watchDaemon, type DaemonWatch } from './docker-liveness.js';
import { INSIDE_DIR } from '../entry-script.js';
import { systemBinds } from '../host-paths.js';
import { writeIdentityFiles } from '../identity-files.js';
import type { Sandbox, SandboxLimits, SandboxScope } from '../types.js';

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
async function createStepContainer(context: LaunchContext, spec: SpawnSpec): Promise<Docker.Container> {
  const { options, scope, room } = context;
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const files = await writeIdentityFiles(room.dir, uid, gid, room.env.HOME!);
  const withStdin = spec.stdin !== undefined;
  const binds = [...systemBinds().filter((bind) => !DOCKER_MANAGED.has(bind.path)), ...room.binds].map(
    (bind) => `${bind.source ?? bind.path}:${bind.path}:${bind.writable ? 'rw' : 'ro'}`,
  );
  binds.push(`${room.dir}:${INSIDE_DIR}:ro`, `${files.passwd}:/etc/passwd:ro`, `${files.group}:/etc/group:ro`, `${room.tmp}:/tmp:rw`);
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
      Memory: options.limits.memoryMb * MIB,
      MemorySwap: options.limits.memoryMb * MIB,
      PidsLimit: options.limits.pids,
      NanoCpus: Math.round(options.limits.cpus * 1e9),
    },
    abortSignal: callSignal(context.signal),
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
/** How long a container's exit code may still arrive once its daemon was found gone. */
const ANSWER_GRACE_MS = 250;
/** How long a stopping container's daemon has to answer a kill. */
const KILL_CALL_MS = 3_000;

/**
 * Whether the kernel's OOM killer ended the container. Docker learns of an OOM kill from an event that may land
 * after the exit is reported, so a SIGKILL exit (137) is looked at again for a short while.
 */
async function oomKilled(container: Docker.Container, code: number | null): Promise<boolean> {
  for (let check = 0; ; check++) {
    const state = await container.inspect({ abortSignal: callSignal(undefined, KILL_CALL_MS) }).then(
      (info) => info.State,
      () => undefined,
    );
    if (state?.OOMKilled) return true;
    if (code !== 137 || check >= OOM_RECHECKS) return false;
    await sleep(100, { ref: false });
  }
}

/** Removes a container, however long its daemon takes or whether it is there at all; never rejects. */
function removeContainer(container: Docker.Container): Promise<void> {
  return container.remove({ force: true, abortSignal: callSignal(undefined) }).then(
    () => undefined,
    () => undefined,
  );
}

/** What one attempt's launcher works with. */
interface LaunchContext {
  options: DockerSandboxOptions;
  scope: SandboxScope;
  room: AttemptRoom;
  /** Where the stopped container's removal goes: the step need not wait for it, only the run's end. */
  cleanups: PendingCleanups;
  /** The step's cancel: it ends every request to the daemon at once. */
  signal?: AbortSignal;
}

/** A failed launch as the start error a runner reports: a daemon that is not there is sandbox_unavailable. */
function launchError(error: unknown): NodeJS.ErrnoException {
  if ((error as NodeJS.ErrnoException).code === SANDBOX_DOWN_CODE) return error as NodeJS.ErrnoException;
  if (isDaemonFault(error)) return daemonDownError(`the Docker daemon is not answering: ${(error as Error).message}`);
  return sandboxError(error);
}

/** Creates, attaches and starts the container; every request ends when the daemon goes, the step is cancelled or it takes too long. */
async function startContainer(context: LaunchContext, spec: SpawnSpec, daemon: DaemonWatch): Promise<{ container: Docker.Container; socket: Socket }> {
  const gone = daemon.lost.then((reason) => Promise.reject(daemonDownError(`the Docker daemon stopped answering while the step started (${reason})`)));
  const guard = <T>(call: Promise<T>) => Promise.race([call, gone]);
  const container = await guard(createStepContainer(context, spec));
  let socket: Socket | undefined;
  try {
    socket = await guard(attachContainer(context.options.docker, container.id, spec.stdin !== undefined, callSignal(context.signal)));
    await guard(container.start({ abortSignal: callSignal(context.signal) }));
    return { container, socket };
  } catch (error) {
    socket?.destroy();
    void removeContainer(container);
    throw error;
  }
}

/** A launcher that runs the spec as a container: attached before it starts, so no output is lost. */
function containerLauncher(context: LaunchContext): Launcher {
  return async (spec) => {
    const daemon = watchDaemon(context.options.docker);
    try {
      const { container, socket } = await startContainer(context, spec, daemon);
      return { process: runningContainer(context, spec, daemon, container, socket) };
    } catch (error) {
      daemon.stop();
      return { error: launchError(error) };
    }
  };
}

/**
 * A started container as spawnInGroup drives it. Its exit is the container's wait, or the daemon found gone: then
 * the attempt fails sandbox_unavailable, and what the orphaned container still runs is killed through its cgroup.
 */
function runningContainer(context: LaunchContext, spec: SpawnSpec, daemon: DaemonWatch, container: Docker.Container, socket: Socket): LaunchedProcess {
  const { options } = context;
  const pids = watchPidsLimit(container.id);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  options.docker.modem.demuxStream(socket, stdout, stderr);
  socket.on('error', () => undefined); // EPIPE when the container exits before its stdin is written
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closed.then(() => {
    stdout.end();
    stderr.end();
    daemon.check(); // the stream also ends when the daemon dies
  });
  let fault: string | undefined;
  const waiting = new AbortController();
  // The container's exit code, or undefined when the daemon went before it said it: then the watch decides.
  const answer = container.wait({ abortSignal: waiting.signal }).then(
    (result: { StatusCode?: number }) => [result.StatusCode ?? null, null] as Exit,
    async (error: unknown) => (isDaemonFault(error) && (await daemonFault(options.docker)) ? undefined : ([null, 'SIGKILL'] as Exit)),
  );
  const lost = daemon.lost.then(async (reason) => {
    // An exit the daemon sent just before it went is the step's own end.
    const answered = await Promise.race([answer, sleep(ANSWER_GRACE_MS, { ref: false }).then(() => undefined)]);
    if (answered) return answered;
    fault = reason;
    waiting.abort();
    await killOrphanedContainer(container.id);
    return [null, 'SIGKILL'] as Exit;
  });
  const exited = Promise.race([answer.then((exit) => exit ?? lost), lost]);
  let done = false;
  void exited.then(() => {
    done = true;
    pids.stop();
    daemon.stop();
  });
  // A daemon that cannot take a kill while a step is being stopped is gone: the stop does not wait for more pings.
  const kill = (signal: string) =>
    container.kill({ signal, abortSignal: callSignal(undefined, KILL_CALL_MS) }).catch((error: unknown) => {
      if (isDaemonFault(error)) daemon.giveUp(`no answer to a ${signal}: ${(error as Error).message}`);
    });
  return {
    stdin: spec.stdin !== undefined ? socket : null,
    stdout,
    stderr,
    exited,
    closed,
    startError: () => (fault ? daemonDownError(`the Docker daemon stopped answering while the step ran (${fault})`) : undefined),
    terminate: async (graceMs) => {
      await kill('SIGTERM');
      await Promise.race([exited, sleep(graceMs, { ref: false })]);
      if (!done) await kill('SIGKILL');
      await exited;
    },
    hasLeftovers: async () => false,
    limitExceeded: async () => {
      const [code] = await exited;
      if (code === 0 || fault) return undefined;
      if (await oomKilled(container, code)) return `memory limit of ${options.limits.memoryMb} MB reached (runtime.sandbox.limits.memory_mb)`;
      if (pids.hit()) return `process limit of ${options.limits.pids} reached (runtime.sandbox.limits.pids)`;
      return undefined;
    },
    // The container has stopped: its removal need not hold up the step, only the end of the run. A daemon found
    // gone cannot remove it: `wave resume` does, by its label.
    release: async () => {
      if (fault) return;
      context.cleanups.add(removeContainer(container));
    },
  };
}

type Exit = [number | null, NodeJS.Signals | null];

/** The docker backend: one container per attempt, labelled with its run and step, removed when the attempt ends. */
export class DockerSandbox implements Sandbox {
  readonly backend = 'docker' as const;

  /** Stopped containers and attempts' room folders being removed. */
  private readonly cleanups = new PendingCleanups();
  /** The FIFOs its attempts' forwarders say they listen on. */
  private readonly fifos = new ReadyFifos();

  constructor(private readonly options: DockerSandboxOptions) {}

  /** Runs the spec in a container; resolves once the container has stopped (it is removed by close()), never rejects. */
  spawn(spec: SpawnSpec, scope: SandboxScope, signal?: AbortSignal): Promise<SpawnResult> {
    return inAttemptRoom(spec, scope, { ...this.options, cleanups: this.cleanups, fifos: this.fifos }, signal, (room) => {
      const launcher = containerLauncher({ options: this.options, scope, room, cleanups: this.cleanups, signal });
      return spawnInGroup(spec, signal, diskLimitedLauncher(launcher, room.writable, this.options.limits.diskMb));
    });
  }

  /** Waits for every stopped container of the run, and its attempts' room folders, to be removed. */
  async close(): Promise<void> {
    await this.cleanups.settle();
    await this.fifos.close();
  }
}

/** Removes every container of a run (a killed `wave run` leaves them running); returns how many. Never rejects. */
export async function removeRunContainers(docker: Docker, runId: string): Promise<number> {
  try {
    const found = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${runId}`] }, abortSignal: callSignal(undefined) } as Docker.ContainerListOptions);
    await Promise.all(found.map((info) => removeContainer(docker.getContainer(info.Id))));
    return found.length;
  } catch {
    return 0;
  }
}
