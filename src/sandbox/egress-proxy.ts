import { promises as dns } from 'node:dns';
import { once } from 'node:events';
import { chmod, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WaveError } from '../core/errors.js';
import { normalizeHost } from '../config/schema/egress-pattern.js';
import { DEFAULT_SANDBOX_LIMITS } from './defaults.js';
import { ConnectionCap, type RefusalTarget } from './connection-cap.js';
import { EgressPolicy, addressClass } from './egress-policy.js';

export interface EgressDecision {
  host: string;
  port: number;
  allowed: boolean;
  reason?: string;
  via: 'connect' | 'http' | 'endpoint';
}

/** Resolves a host name to its addresses. */
export type Resolver = (host: string) => Promise<string[]>;

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

const defaultResolver: Resolver = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

// Headers that describe one hop, not the request (RFC 9110 §7.6.1), plus the proxy's own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Copies headers without hop-by-hop ones, Proxy-* ones and those the Connection header names. */
function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim());
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k) && !k.startsWith('proxy-') && !named.includes(k)));
}

/** host:port, with IPv6 in brackets. */
const hostPort = (host: string, port: number): string => (net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`);

/** Pipes two sockets both ways; an error or close on either side ends both. */
function splice(a: Duplex, b: Duplex): void {
  const end = (): void => void (a.destroy(), b.destroy());
  for (const s of [a, b]) s.on('error', end).on('close', end);
  a.pipe(b).pipe(a);
}

type Verdict = { address: string } | { denied: string };

/** Starts the allowlisting HTTP proxy and the endpoint forwarders on unix sockets under options.dir. */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const { dir, policy, onDecision, allowlistHint } = options;
  const resolve = options.resolver ?? defaultResolver;
  const targets = options.endpoints.map(endpointTarget);
  const endpointPolicy = new EgressPolicy(targets.map((t) => hostPort(t.host, t.port)));
  const open = new Set<Duplex>();
  const maxConnections = options.maxConnections ?? DEFAULT_SANDBOX_LIMITS.connections;
  let denied = 0;

  /** Applies the allowlist, then the address rule to the resolved addresses; the address is the one to connect to. */
  async function judge(host: string, port: number): Promise<Verdict> {
    const exact = endpointPolicy.listsExactly(host, port) || policy.listsExactly(host, port);
    if (!exact && !policy.match(host, port)) return { denied: 'no entry matches it' };
    const name = normalizeHost(host);
    if (net.isIP(name)) return exact ? { address: name } : { denied: 'an IP address must be listed exactly' };
    const addresses = await resolve(name);
    if (addresses.length === 0) throw new Error(`${name} resolves to no address`);
    for (const address of addresses) {
      const kind = addressClass(address);
      // A wildcard must not reach internal services through a name someone points at them.
      if (kind !== 'public' && !exact) return { denied: `it resolves to ${address}, a ${kind} address, which must be listed exactly` };
    }
    // Connect to the address that was checked; resolving again would let DNS rebinding slip past.
    return { address: addresses[0] as string };
  }

  function decide(decision: EgressDecision): void {
    if (!decision.allowed) denied += 1;
    try {
      onDecision(decision);
    } catch {
      // An audit callback that throws must not take the proxy down.
    }
  }

  function refusal(host: string, port: number, reason: string): string {
    const allowed = policy.entries.length > 0 ? policy.entries.join(', ') : 'nothing';
    return `Wave egress proxy: ${hostPort(host, port)} is not on this step's allowlist (${reason}). Allowed: ${allowed}. To allow it, add it to ${allowlistHint}.\n`;
  }

  /** Connects to address:port; resolves with the socket once connected, rejects on failure. */
  function dial(address: string, port: number): Promise<net.Socket> {
    return new Promise((ok, fail) => {
      const socket = net.connect({ host: address, port });
      open.add(socket.on('close', () => open.delete(socket)));
      // The listener stays: a later error (after ok) must not go unhandled before the socket is piped.
      socket.once('connect', () => ok(socket)).on('error', fail);
    });
  }

  /** Judges host:port, records the decision and connects: the upstream socket, or the status and body to answer. */
  async function admit(host: string, port: number, via: EgressDecision['via']): Promise<net.Socket | { status: number; body: string }> {
    const unreachable = (reason: string) => ({ status: 502, body: `Wave egress proxy: cannot reach ${hostPort(host, port)}: ${reason}\n` });
    let verdict: Verdict;
    try {
      verdict = await judge(host, port);
    } catch (error) {
      // Not resolved, so never checked against the address rule: nothing was reached, and it is not counted as allowed.
      const reason = `not resolved: ${(error as Error).message}`;
      decide({ host, port, allowed: false, reason, via });
      return unreachable(reason);
    }
    if ('denied' in verdict) {
      decide({ host, port, allowed: false, reason: verdict.denied, via });
      return { status: 403, body: refusal(host, port, verdict.denied) };
    }
    try {
      const upstream = await dial(verdict.address, port);
      decide({ host, port, allowed: true, via });
      return upstream;
    } catch (error) {
      const reason = (error as Error).message;
      decide({ host, port, allowed: true, reason, via });
      return unreachable(reason);
    }
  }

  const cap = new ConnectionCap(maxConnections, (target, reason) => decide({ ...target, allowed: false, reason }));

  /** Takes a new connection from the sandbox into the open set, unless the cap refuses it; false when refused. */
  function admitClient(socket: Duplex, target: RefusalTarget): boolean {
    if (!cap.admit(socket, target)) return false;
    open.add(socket.on('close', () => open.delete(socket)));
    return true;
  }

  async function onConnect(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    // After CONNECT the socket is ours: answers are written raw.
    const raw = (status: number, body: string): void =>
      void client.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    const target = /^(\[[^\]]+\]|[^:[\]/@]+):(\d{1,5})$/.exec(req.url ?? '');
    const port = Number(target?.[2]);
    if (!target || !(port >= 1 && port <= 65535)) return raw(400, 'Wave egress proxy: CONNECT needs host:port.\n');
    const host = normalizeHost(target[1] as string);
    const upstream = await admit(host, port, 'connect');
    if (!(upstream instanceof net.Socket)) return raw(upstream.status, upstream.body);
    if (client.destroyed) return void upstream.destroy();
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  async function onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const reply = (status: number, body: string): void => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(body);
    };
    const url = URL.canParse(req.url ?? '') ? new URL(req.url ?? '') : undefined;
    if (url?.protocol !== 'http:') return reply(400, 'Wave egress proxy: expected CONNECT host:port or an absolute http:// URL.\n');
    const host = normalizeHost(url.hostname);
    const port = Number(url.port || 80);
    const upstream = await admit(host, port, 'http');
    if (!(upstream instanceof net.Socket)) return reply(upstream.status, upstream.body);
    if (req.socket.destroyed) return void upstream.destroy();
    // A forward proxy replaces Host with the authority of the request target (RFC 9112 §3.2.2).
    const headers = { ...endToEnd(req.headers), host: url.host };
    const forward = http.request({ createConnection: () => upstream, method: req.method, path: url.pathname + url.search, headers });
    forward.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.on('error', () => res.destroy()).pipe(res);
    });
    forward.on('error', (error) => reply(502, `Wave egress proxy: ${hostPort(host, port)} failed: ${error.message}\n`));
    res.on('close', () => forward.destroy()).on('error', () => forward.destroy());
    req.on('error', () => forward.destroy()).pipe(forward);
  }

  // A request the sandbox cannot name is counted under this target: the proxy has not read it yet.
  const proxyTarget: RefusalTarget = { host: '*', port: 0, via: 'connect' };
  const server = http.createServer((req, res) => void onRequest(req, res));
  server.on('connection', (socket: net.Socket) => void admitClient(socket, proxyTarget));
  // The server stops watching a socket for errors once it hands it over for CONNECT.
  server.on(
    'connect',
    (req: http.IncomingMessage, client: Duplex, head: Buffer) =>
      void onConnect(
        req,
        client.on('error', () => client.destroy()),
        head,
      ),
  );
  // A malformed request gets 400 rather than Node's default, and never an unhandled error.
  server.on('clientError', (_error, socket: Duplex) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  const socketPath = join(dir, 'proxy.sock');
  const listening: Array<[net.Server, string, RefusalTarget]> = [[server, socketPath, proxyTarget]];
  const forwards: Array<{ port: number; socketPath: string }> = [];
  for (const { host, port } of targets) {
    if (!isLoopbackHost(host) || forwards.some((f) => f.port === port)) continue;
    const forwarder = net.createServer((client) => {
      if (!admitClient(client, { host, port, via: 'endpoint' })) return;
      dial(host, port).then(
        (upstream) => {
          decide({ host, port, allowed: true, via: 'endpoint' });
          if (client.destroyed) return void upstream.destroy();
          splice(client, upstream);
        },
        (error: Error) => {
          decide({ host, port, allowed: true, reason: error.message, via: 'endpoint' });
          client.destroy();
        },
      );
    });
    forwards.push({ port, socketPath: join(dir, `endpoint-${port}.sock`) });
    listening.push([forwarder, join(dir, `endpoint-${port}.sock`), { host, port, via: 'endpoint' }]);
  }

  for (const [s, , target] of listening) cap.watch(s, target);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      for (const socket of open) socket.destroy();
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
      return denied;
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
