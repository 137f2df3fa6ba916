import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnInGroup } from '../process/spawn.js';
import { ownerTag } from '../process/owner-tag.js';
import { describeCause, isFileSystemError } from '../io-error.js';
import type { SpawnResult, SpawnSpec } from '../process/spawn-spec.js';
import { EgressPolicy } from './egress/egress-policy.js';
import { startEgressProxy, type EgressProxy, type Resolver } from './egress/egress-proxy.js';
import { entryScript, INSIDE_DIR, type InsideForward } from './entry-script.js';
import { installFolderOf, nodeInstallFolder, type Bind } from './host-paths.js';
import type { PendingCleanups } from './pending-cleanups.js';
import type { ReadyFifos } from './ready-fifos.js';
import { attemptHome, type EgressRecord, type SandboxLimits, type SandboxScope } from './types.js';

/** The proxy's port inside the sandbox, moved up when a model endpoint already uses it. */
const PROXY_PORT = 3128;
/** An attempt's temp folder is `wave-sbx-<pid>-<start time>-XXXXXX`: its maker, so a sweep removes only a gone Wave's. */
export const ROOM_PREFIX = 'wave-sbx-';
const ALLOWLIST_KEYS = "runtime.sandbox.default_allowed_domains in the manifest, or the persona's sandbox.allowed_domains";

export interface RoomOptions {
  onEgress: (record: EgressRecord) => void;
  resolver?: Resolver;
  /** The attempt's limits; the egress proxy holds it to `connections`. */
  limits?: Pick<SandboxLimits, 'connections'>;
}

/** What a sandbox keeps for all its attempts: where their room folders' removal goes, and the FIFOs their forwarders report on. */
export interface AttemptSupport {
  cleanups: PendingCleanups;
  fifos: ReadyFifos;
}

/** One attempt's sandbox, backend-neutral: what it binds, its environment and argv, and the egress proxy serving it. */
export interface AttemptRoom {
  /** Host folder seen read-only at /run/wave inside: the proxy sockets and the entry script. */
  readonly dir: string;
  /** Host paths seen at the same path inside, besides the system folders. */
  readonly binds: readonly Bind[];
  /** The complete environment inside. */
  readonly env: Record<string, string>;
  /** The entry script, then the runner's command and arguments. */
  readonly argv: readonly string[];
  /** Host folder seen at /tmp inside: on disk, so the disk limit measures it with the workspace and HOME. */
  readonly tmp: string;
  /** Every host folder the step can write: what its disk limit measures. */
  readonly writable: readonly string[];
  /** Stops the proxy, takes back the FIFOs and removes /tmp at once; the room folder's removal is left to the sandbox's clean-ups. Never rejects. */
  close(): Promise<void>;
}

/** A free port for the proxy inside: PROXY_PORT unless an endpoint forward takes it. */
function proxyPortAvoiding(taken: ReadonlySet<number>): number {
  let port = PROXY_PORT;
  while (taken.has(port)) port++;
  return port;
}

/**
 * Prepares one attempt: a short host folder (a socket path must stay under 108 bytes), the egress proxy with the
 * step's allowlist and model endpoints, the entry script, the step's own HOME in its attempt folder, and the
 * environment inside: the curated one with HOME, TMPDIR and the proxy variables set to the sandbox's own.
 */
export async function prepareAttemptRoom(spec: SpawnSpec, scope: SandboxScope, options: RoomOptions & AttemptSupport): Promise<AttemptRoom> {
  const policy = new EgressPolicy(scope.allowedDomains);
  const dir = await mkdtemp(join(tmpdir(), `${ROOM_PREFIX}${ownerTag()}-`));
  let starting: Promise<EgressProxy> | undefined;
  try {
    const home = attemptHome(scope.attemptDir);
    const tmp = join(scope.attemptDir, 'tmp');
    // Independent of each other: made at once, the proxy listening while the folders are made.
    starting = chmod(dir, 0o755).then(() =>
      startEgressProxy({
        dir,
        policy,
        endpoints: scope.endpoints,
        allowlistHint: ALLOWLIST_KEYS,
        resolver: options.resolver,
        maxConnections: options.limits?.connections,
        onDecision: (decision) => options.onEgress({ scope, ...decision }),
      }),
    );
    const [started, loginMount] = await Promise.all([
      starting,
      mkdir(home, { recursive: true }).then(() => (scope.login ? loginMountPoint(scope.login.at) : undefined)),
      mkdir(tmp, { recursive: true }),
    ]);
    const sockets = started.forwards.map((f) => ({ port: f.port, socketPath: f.socketPath }));
    const proxyPort = proxyPortAvoiding(new Set(sockets.map((f) => f.port)));
    sockets.unshift({ port: proxyPort, socketPath: started.socketPath });
    const forwards: InsideForward[] = sockets.map((f) => ({ port: f.port, socket: relativeSocket(dir, f.socketPath), ready: `ready-${f.port}` }));
    const fifos = forwards.map((f) => join(dir, f.ready));
    await Promise.all([writeFile(join(dir, 'entry.sh'), entryScript(forwards), { mode: 0o755 }), ...fifos.map((fifo) => options.fifos.lend(fifo))]);
    const proxyUrl = `http://127.0.0.1:${proxyPort}`;
    const env: Record<string, string> = {
      ...spec.env,
      ...scope.login?.variables,
      HOME: home,
      TMPDIR: '/tmp',
      HTTP_PROXY: proxyUrl,
      HTTPS_PROXY: proxyUrl,
      http_proxy: proxyUrl,
      https_proxy: proxyUrl,
      ALL_PROXY: proxyUrl,
      all_proxy: proxyUrl,
      // Loopback endpoints are forwarded at their own port inside, so clients reach them directly.
      NO_PROXY: 'localhost,127.0.0.1,::1',
      no_proxy: 'localhost,127.0.0.1,::1',
    };
    const readOnly = [installFolderOf(spec.command), nodeInstallFolder(), ...(scope.readOnly ?? [])].filter((path): path is string => path !== undefined && existsSync(path));
    // Parents before children: a read-write bind inside a read-only one must be mounted after it.
    const binds: Bind[] = [
      ...[...new Set(readOnly)].map((path) => ({ path, writable: false })),
      { path: scope.workspace, writable: true },
      ...(scope.gitBinds ?? []).filter((bind) => existsSync(bind.path)),
      { path: home, writable: true },
      ...(scope.login ? [{ path: scope.login.at, source: scope.login.file, writable: true }] : []),
    ];
    return {
      dir,
      binds,
      env,
      argv: ['/bin/sh', `${INSIDE_DIR}/entry.sh`, spec.command, ...spec.args],
      tmp,
      // A file bound from elsewhere is no part of what the step adds.
      writable: [...binds.filter((bind) => bind.writable && !bind.source).map((bind) => bind.path), tmp],
      close: async () => {
        // At once: no decision of the attempt's proxy may be recorded after its step, and the next spawn in the same
        // attempt folder (a skill's check after its install) makes its own /tmp and login mount point.
        await Promise.all([
          started.close(),
          ...fifos.map((fifo) => options.fifos.takeBack(fifo)),
          loginMount?.remove(),
          // The attempt's /tmp is private to it, as a tmpfs would be.
          rm(tmp, { recursive: true, force: true }).catch(() => undefined),
        ]);
        // This folder is this spawn's alone: its removal need not hold up the step.
        options.cleanups.add(rm(dir, { recursive: true, force: true }));
      },
    };
  } catch (error) {
    // The proxy may still be starting when a folder could not be made.
    await (await starting?.catch(() => undefined))?.close();
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}

/** The empty file the login is mounted over (a file bind needs one), removed after the attempt so the record keeps no trace of it. */
async function loginMountPoint(at: string): Promise<{ remove(): Promise<void> }> {
  await mkdir(dirname(at), { recursive: true });
  const made = await open(at, 'wx').then(
    (handle) => handle.close().then(() => true),
    (error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? false : Promise.reject(error)),
  );
  return { remove: async () => (made ? rm(at, { force: true }).catch(() => undefined) : undefined) };
}

function relativeSocket(dir: string, socketPath: string): string {
  return socketPath.slice(dir.length + 1);
}

/** The first error with an errno code along `error`'s cause chain (the outer ones say where), else `error` itself. */
function errnoCause(error: unknown): NodeJS.ErrnoException {
  for (let at: unknown = error; at instanceof Error; at = at.cause) if (isFileSystemError(at)) return at;
  return error as NodeJS.ErrnoException;
}

/** A sandbox that could not be prepared, as the start error a runner reports; an errno cause is said in words and kept. */
export function sandboxError(error: unknown): NodeJS.ErrnoException {
  // The errno may sit under an error that explains where it happened (the proxy's listen): that one says why.
  const errno = errnoCause(error);
  const why = isFileSystemError(errno)
    ? `cannot ${errno.syscall ?? 'use'} ${errno.path ?? (errno as { address?: string }).address ?? 'a file'}: ${describeCause(errno)}`
    : error instanceof Error
      ? error.message
      : String(error);
  const failure: NodeJS.ErrnoException = new Error(`the sandbox could not be prepared: ${why}`, { cause: isFileSystemError(errno) ? errno : error });
  failure.code = 'ESANDBOX';
  return failure;
}

/**
 * Runs one attempt in a prepared room and closes it afterwards, its room folder removed in `options.cleanups`. `run` may throw only while it sets up (it ends with
 * spawnInGroup, which never rejects): that becomes a start error, so a sandboxed spawn never rejects either.
 */
export async function inAttemptRoom(
  spec: SpawnSpec,
  scope: SandboxScope,
  options: RoomOptions & AttemptSupport,
  signal: AbortSignal | undefined,
  run: (room: AttemptRoom) => Promise<SpawnResult>,
): Promise<SpawnResult> {
  let room: AttemptRoom | undefined;
  try {
    room = await prepareAttemptRoom(spec, scope, options);
    return await run(room);
  } catch (error) {
    return await spawnInGroup(spec, signal, async () => ({ error: sandboxError(error) }));
  } finally {
    await room?.close();
  }
}
