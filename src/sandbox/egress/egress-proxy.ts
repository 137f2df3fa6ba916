import { promises as dns } from 'node:dns';
import { once } from 'node:events';
import { chmod, rm } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { WaveError } from '../../core/errors/errors.js';
import { normalizeHost } from '../../config/schema/egress-pattern.js';
import { DEFAULT_SANDBOX_LIMITS } from '../defaults.js';
import type { RefusalTarget } from './connection-cap.js';
import { EgressGate, type EgressDecision, type Resolver } from './egress-gate.js';
import { createProxyServer } from './egress-http-server.js';
import { EgressPolicy, addressClass } from './egress-policy.js';
import { createEndpointForwarder } from './endpoint-forwarder.js';
import { hostPort } from './proxy-plumbing.js';

export type { EgressDecision, Resolver } from './egress-gate.js';

export interface EgressProxyOptions {
  /** Folder for the unix sockets (created by the caller; a socket path must stay under 108 bytes). */
  dir: string;
  policy: EgressPolicy;
  /** Model endpoints the step must reach at the same URL: always allowed; loopback ones also get a forwarding socket. */
  endpoints: readonly string[];
  onDecision: (decision: EgressDecision) => void;
  resolver?: Resolver;
  /** Where an allowlist is edited, for the 403 body. */
  allowlistHint: string;
  /** Connections the sandbox may hold open at once, over every socket of the proxy; default runtime.sandbox.limits.connections' own. */
  maxConnections?: number;
}

export interface EgressProxy {
  /** The unix socket of the HTTP proxy: <dir>/proxy.sock. */
  readonly socketPath: string;
  /** Loopback endpoints forwarded: port inside the sandbox -> unix socket path (<dir>/endpoint-<port>.sock). */
  readonly forwards: ReadonlyArray<{ port: number; socketPath: string }>;
  readonly deniedCount: number;
  /** Closes the servers and every open tunnel; idempotent; never rejects. */
  close(): Promise<void>;
}

/** Resolves a name through the system's resolver, every address of it. */
export const defaultResolver: Resolver = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Starts the allowlisting HTTP proxy and the endpoint forwarders on unix sockets under options.dir. */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const { dir } = options;
  const targets = options.endpoints.map(endpointTarget);
  const gate = new EgressGate({
    policy: options.policy,
    endpointPolicy: new EgressPolicy(targets.map((t) => hostPort(t.host, t.port))),
    resolve: options.resolver ?? defaultResolver,
    onDecision: options.onDecision,
    allowlistHint: options.allowlistHint,
    maxConnections: options.maxConnections ?? DEFAULT_SANDBOX_LIMITS.connections,
  });

  // A request the sandbox cannot name is counted under this target: the proxy has not read it yet.
  const proxyTarget: RefusalTarget = { host: '*', port: 0, via: 'connect' };
  const socketPath = join(dir, 'proxy.sock');
  const listening: Array<[net.Server, string, RefusalTarget]> = [[createProxyServer(gate, proxyTarget), socketPath, proxyTarget]];
  const forwards: Array<{ port: number; socketPath: string }> = [];
  for (const { host, port } of targets) {
    if (!isLoopbackHost(host) || forwards.some((f) => f.port === port)) continue;
    const forwarder = createEndpointForwarder(gate, host, port);
    forwards.push({ port, socketPath: join(dir, `endpoint-${port}.sock`) });
    listening.push([forwarder, join(dir, `endpoint-${port}.sock`), { host, port, via: 'endpoint' }]);
  }

  for (const [s, , target] of listening) gate.watch(s, target);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      gate.destroyOpen();
      await Promise.all(listening.map(([s]) => new Promise<void>((done) => s.close(() => done()))));
    })().catch(() => undefined));

  try {
    for (const [s, path] of listening) await listen(s, path);
  } catch (error) {
    await close();
    throw new WaveError('sandbox_unavailable', `The egress proxy cannot listen in ${dir}: ${(error as Error).message}`, {
      hint: 'Use a short, writable folder for the sandbox sockets; a socket path must stay under 108 bytes.',
      cause: error,
    });
  }
  return {
    socketPath,
    forwards,
    get deniedCount() {
      return gate.deniedCount;
    },
    close,
  };
}

/** Listens on a unix socket any uid may connect to, replacing a stale socket file. */
async function listen(server: net.Server, path: string): Promise<void> {
  // sun_path holds 108 bytes with the NUL, and Node silently truncates a longer path.
  if (Buffer.byteLength(path) > 107) throw new Error(`the socket path ${path} is longer than 107 bytes`);
  await rm(path, { force: true });
  server.listen(path);
  await once(server, 'listening');
  // The sandbox runs as another uid; the folder holding the socket is what limits who reaches it.
  await chmod(path, 0o777);
}

/** host and port of an endpoint URL, the port defaulted from the scheme. */
function endpointTarget(endpoint: string): { host: string; port: number } {
  const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new WaveError('invalid_argument', `Model endpoint "${endpoint}" is not an http(s) URL.`, { hint: 'Give the endpoint as a full URL such as http://127.0.0.1:8080/v1.' });
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return { host: normalizeHost(url.hostname), port };
}

/** Whether an endpoint host is the machine itself, so the sandbox needs a forwarder to reach it. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || (net.isIP(host) !== 0 && addressClass(host) === 'loopback');
}
