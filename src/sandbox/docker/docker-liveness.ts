import { readFile } from 'node:fs/promises';
import type Docker from 'dockerode';
import { SANDBOX_DOWN_CODE } from '../../core/errors/failure.js';

/** How often the daemon of a running container is asked whether it is alive, and how long it has to answer. */
const PING_EVERY_MS = 1_000;
const PING_TIMEOUT_MS = 3_000;
/** Pings without an answer in a row before a daemon that still holds its socket open counts as gone. */
const SILENT_PINGS = 2;
/** The longest any one request to the daemon may take; a container wait is bounded by the liveness watch instead. */
export const DAEMON_CALL_MS = 30_000;

/** Whether a failed request means the daemon is not there (no socket, refused, cut, silent), not that it said no. */
export function isDaemonFault(error: unknown): boolean {
  const { code, statusCode } = (error ?? {}) as { code?: string; statusCode?: number };
  if (statusCode !== undefined) return false;
  return timedOut(error) || ['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EACCES'].includes(code ?? '') || /socket hang up/.test(String(error));
}

/** Whether a request was ended by its time bound (Node reports an AbortError caused by the timeout's TimeoutError). */
export function timedOut(error: unknown): boolean {
  const { name, cause } = (error ?? {}) as { name?: string; cause?: { name?: string } };
  return name === 'TimeoutError' || (name === 'AbortError' && cause?.name === 'TimeoutError');
}

/** The start error of an attempt whose Docker daemon died or stopped answering: spawnFailure makes it sandbox_unavailable. */
export function daemonDownError(message: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(message);
  error.code = SANDBOX_DOWN_CODE;
  return error;
}

/** An abort signal for one daemon request: the step's cancel, or the bound of the request, whichever comes first. */
export function callSignal(signal: AbortSignal | undefined, ms = DAEMON_CALL_MS): AbortSignal {
  return signal ? AbortSignal.any([signal, AbortSignal.timeout(ms)]) : AbortSignal.timeout(ms);
}

/** Asks the daemon whether it is alive; the reason it is not, or undefined. */
export async function daemonFault(docker: Docker): Promise<{ detail: string; silent: boolean } | undefined> {
  try {
    // dockerode takes an abortSignal here too; its types do not say so.
    await (docker as unknown as { ping(options: { abortSignal: AbortSignal }): Promise<unknown> }).ping({ abortSignal: AbortSignal.timeout(PING_TIMEOUT_MS) });
    return undefined;
  } catch (error) {
    if (!isDaemonFault(error)) return undefined;
    const silent = timedOut(error);
    return { detail: silent ? `no answer to a ping within ${PING_TIMEOUT_MS / 1000} s` : String((error as Error).message ?? error), silent };
  }
}

/** A watch on the daemon of a running container: `lost` resolves with the reason once the daemon is gone. */
export interface DaemonWatch {
  readonly lost: Promise<string>;
  /** Asks at once rather than at the next tick (the attach stream ended: the container exited, or the daemon died). */
  check(): void;
  /** Takes the daemon for gone without more pings (it did not answer a request that had to be answered). */
  giveUp(reason: string): void;
  stop(): void;
}

/**
 * Pings the daemon every second while a container runs. A request in flight (the container's wait) never learns
 * that the daemon died: its connection may have already had its answer's headers, and a stopped daemon keeps it open.
 */
export function watchDaemon(docker: Docker): DaemonWatch {
  let silent = 0;
  let stopped = false;
  let pinging = false;
  let resolveLost: (reason: string) => void = () => undefined;
  const lost = new Promise<string>((resolve) => (resolveLost = resolve));
  const check = () => {
    if (stopped || pinging) return;
    pinging = true;
    void daemonFault(docker).then((fault) => {
      pinging = false;
      silent = fault?.silent ? silent + 1 : 0;
      if (stopped || !fault || (fault.silent && silent < SILENT_PINGS)) return;
      giveUp(fault.detail);
    });
  };
  const giveUp = (reason: string) => {
    if (stopped) return;
    stop();
    resolveLost(reason);
  };
  const timer = setInterval(check, PING_EVERY_MS).unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return { lost, check, giveUp, stop };
}

/** cgroup.procs of a container under cgroup v1 (Docker's cgroupfs driver) and v2 (systemd or cgroupfs driver). */
const containerProcs = (id: string) => [
  `/sys/fs/cgroup/pids/docker/${id}/cgroup.procs`,
  `/sys/fs/cgroup/system.slice/docker-${id}.scope/cgroup.procs`,
  `/sys/fs/cgroup/docker/${id}/cgroup.procs`,
];

/**
 * Kills what runs in a container whose daemon is gone (its shim keeps it running, and nobody can ask Docker to stop
 * it), through its cgroup. Best effort: Wave may not be allowed to signal them; never rejects.
 */
export async function killOrphanedContainer(id: string): Promise<void> {
  for (const file of containerProcs(id)) {
    const pids = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already, or not ours to signal.
      }
    }
  }
}
