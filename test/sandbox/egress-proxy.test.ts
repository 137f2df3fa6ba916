import { mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EgressPolicy, addressClass } from '../../src/sandbox/egress/egress-policy.js';
import { type EgressDecision, type EgressProxy, startEgressProxy } from '../../src/sandbox/egress/egress-proxy.js';
import { selfSignedCert } from '../support/self-signed-cert.js';

const HINT = "runtime.sandbox.default_allowed_domains or the persona's sandbox.allowed_domains";
// Test names stand for loopback servers; private.test and mixed.test must be refused before any connect.
const DNS: Record<string, string[]> = {
  'allowed.test': ['127.0.0.1'],
  'api.loop.test': ['127.0.0.1'],
  'private.test': ['10.0.0.1'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
};

let certDir: string;
let cert: { key: Buffer; cert: Buffer };
let tlsServer: https.Server;
let httpServer: http.Server;
let echoServer: net.Server;
const ports = { tls: 0, http: 0, echo: 0, closed: 0 };

/** Starts a server on an ephemeral loopback port and returns the port. */
async function onLoopback(server: net.Server): Promise<number> {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return (server.address() as net.AddressInfo).port;
}

beforeAll(async () => {
  // A regression must fail a test, not reach the network: the proxy may dial loopback only.
  const realConnect = net.connect.bind(net) as (...args: unknown[]) => net.Socket;
  vi.spyOn(net, 'connect').mockImplementation((...args: unknown[]) => {
    const host = (args[0] as { host?: unknown } | undefined)?.host;
    const loopback = host === 'localhost' || (typeof host === 'string' && net.isIP(host) !== 0 && addressClass(host) === 'loopback');
    if (host !== undefined && !loopback) throw new Error(`the test would have dialled ${inspect(host)}`);
    return realConnect(...args);
  });
  certDir = mkdtempSync(join(tmpdir(), 'wave-cert-'));
  cert = selfSignedCert(certDir, 'allowed.test');
  tlsServer = https.createServer(cert, (_req, res) => res.end('hello over tls'));
  httpServer = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req
      .on('data', (c: Buffer) => body.push(c))
      .on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(body).toString() }));
      });
  });
  echoServer = net.createServer((c) => c.on('error', () => undefined).pipe(c));
  ports.tls = await onLoopback(tlsServer);
  ports.http = await onLoopback(httpServer);
  ports.echo = await onLoopback(echoServer);
  const spare = net.createServer();
  ports.closed = await onLoopback(spare);
  await new Promise((ok) => spare.close(ok));
});

afterAll(async () => {
  vi.restoreAllMocks();
  for (const server of [tlsServer, httpServer]) server.closeAllConnections();
  await Promise.all([tlsServer, httpServer, echoServer].map((server) => new Promise((ok) => server.close(ok))));
  rmSync(certDir, { recursive: true, force: true });
});

let dir: string;
let proxy: EgressProxy | undefined;
let decisions: EgressDecision[];
let lookups: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wave-egress-'));
  decisions = [];
  lookups = [];
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function start(entries: string[], endpoints: string[] = [], maxConnections?: number): Promise<EgressProxy> {
  proxy = await startEgressProxy({
    dir,
    maxConnections,
    policy: new EgressPolicy(entries),
    endpoints,
    allowlistHint: HINT,
    onDecision: (d) => decisions.push(d),
    resolver: async (host) => {
      lookups.push(host);
      const found = DNS[host];
      if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
      return found;
    },
  });
  return proxy;
}

/** Sends CONNECT through the proxy; the status, and the socket (tunnel or refusal body) that follows. */
function connect(target: string): Promise<{ status: number; socket: net.Socket; head: Buffer }> {
  return new Promise((ok, fail) => {
    http
      .request({ socketPath: proxy!.socketPath, method: 'CONNECT', path: target })
      .on('connect', (res, socket, head) => ok({ status: res.statusCode ?? 0, socket, head }))
      .on('error', fail)
      .end();
  });
}

/** Reads a stream to its end as text, after what was already read (head). */
async function drain(stream: AsyncIterable<Buffer>, head: Buffer = Buffer.alloc(0)): Promise<string> {
  const chunks: Buffer[] = [head];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString();
}

/** Sends a request through a unix socket (the proxy, or a forwarder); the status and body. */
function request(socketPath: string, path: string, options: http.RequestOptions = {}, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    http
      .request({ socketPath, path, ...options }, (res) => void drain(res).then((text) => ok({ status: res.statusCode ?? 0, body: text }), fail))
      .on('error', fail)
      .end(body);
  });
}

/** Sends CONNECT for a destination the proxy must refuse; the body of its 403. */
async function refusedConnect(target: string): Promise<string> {
  const { status, socket, head } = await connect(target);
  expect(status).toBe(403);
  return drain(socket, head);
}

/** Writes raw bytes to the proxy socket and returns everything it answers. */
function raw(text: string): Promise<string> {
  const socket = net.connect(proxy!.socketPath);
  socket.end(text);
  return drain(socket);
}

/** What a connection to `path` is answered before it closes, sending a request line; a reset counts as no answer. */
function answerOf(path: string): Promise<string> {
  const chunks: Buffer[] = [];
  return new Promise((ok) => {
    const socket = net.connect(path);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => socket.destroy()).on('close', () => ok(Buffer.concat(chunks).toString()));
    socket.write('GET http://allowed.test/ HTTP/1.1\r\n\r\n');
  });
}

describe('egress proxy', () => {
  it('tunnels CONNECT to an allowed HTTPS server and checks its certificate through the tunnel', async () => {
    await start(['allowed.test']);
    expect(statSync(proxy!.socketPath).mode & 0o777).toBe(0o777);
    const { status, socket } = await connect(`allowed.test:${ports.tls}`);
    expect(status).toBe(200);
    const body = await new Promise<string>((ok, fail) => {
      const createConnection = (): tls.TLSSocket => tls.connect({ socket, servername: 'allowed.test', ca: cert.cert });
      https.get({ host: 'allowed.test', path: '/', createConnection }, (res) => void drain(res).then(ok, fail)).on('error', fail);
    });
    expect(body).toBe('hello over tls');
    expect(decisions).toEqual([{ host: 'allowed.test', port: ports.tls, allowed: true, via: 'connect' }]);
  });

  it('forwards an absolute-URI request with its body, without Proxy-* and hop-by-hop headers', async () => {
    await start(['allowed.test']);
    const answer = await request(
      proxy!.socketPath,
      `http://allowed.test:${ports.http}/v1/items?q=1`,
      {
        method: 'POST',
        headers: { 'proxy-authorization': 'Basic eA==', 'x-keep': 'yes', connection: 'keep-alive, x-drop', 'x-drop': '1' },
      },
      'payload',
    );
    expect(answer.status).toBe(200);
    const seen = JSON.parse(answer.body) as { method: string; url: string; headers: Record<string, string>; body: string };
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/items?q=1', body: 'payload' });
    expect(seen.headers).toMatchObject({ host: `allowed.test:${ports.http}`, 'x-keep': 'yes' });
    expect(seen.headers).not.toHaveProperty('proxy-authorization');
    expect(seen.headers).not.toHaveProperty('x-drop');
    expect(decisions).toEqual([{ host: 'allowed.test', port: ports.http, allowed: true, via: 'http' }]);
  });

  it('answers 403 naming the allowlist for a host no entry matches, without resolving it', async () => {
    await start(['allowed.test', '*.example.com:443']);
    expect(await refusedConnect('denied.test:443')).toBe(
      `Wave egress proxy: denied.test:443 is not on this step's allowlist (no entry matches it). Allowed: allowed.test, *.example.com:443. To allow it, add it to ${HINT}.\n`,
    );
    const viaHttp = await request(proxy!.socketPath, 'http://www.example.com/');
    expect(viaHttp.status).toBe(403);
    expect(viaHttp.body).toContain('www.example.com:80 is not on');
    expect(decisions).toEqual([
      { host: 'denied.test', port: 443, allowed: false, reason: 'no entry matches it', via: 'connect' },
      { host: 'www.example.com', port: 80, allowed: false, reason: 'no entry matches it', via: 'http' },
    ]);
    expect(proxy!.deniedCount).toBe(2);
    expect(lookups).toEqual([]);
  });

  it('says "nothing" when the allowlist is empty', async () => {
    await start([]);
    expect(await refusedConnect('allowed.test:443')).toContain('Allowed: nothing.');
  });

  it('refuses an IP literal unless an entry names it exactly', async () => {
    await start(['*.0.0.1']);
    expect(await refusedConnect(`127.0.0.1:${ports.echo}`)).toContain('an IP address must be listed exactly');
    await proxy!.close();
    await start(['127.0.0.1']);
    const allowed = await connect(`127.0.0.1:${ports.echo}`);
    expect(allowed.status).toBe(200);
    allowed.socket.destroy();
  });

  it('refuses a wildcard-matched name that resolves to loopback, and allows it when listed exactly', async () => {
    await start(['*.loop.test']);
    const refused = await request(proxy!.socketPath, `http://api.loop.test:${ports.http}/`);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('it resolves to 127.0.0.1, a loopback address, which must be listed exactly');
    await proxy!.close();
    await start(['*.loop.test', 'api.loop.test']);
    expect((await request(proxy!.socketPath, `http://api.loop.test:${ports.http}/`)).status).toBe(200);
  });

  it('refuses a name resolving to a private address, and a name with any non-public address', async () => {
    await start(['*.test', 'private.test:1']);
    expect(await refusedConnect('private.test:443')).toContain('resolves to 10.0.0.1, a private address');
    expect(await refusedConnect('mixed.test:443')).toContain('resolves to 127.0.0.1, a loopback address');
    expect(decisions.map((d) => [d.host, d.allowed])).toEqual([
      ['private.test', false],
      ['mixed.test', false],
    ]);
  });

  it('reaches a model endpoint through the proxy and through its forwarding socket', async () => {
    const endpoint = `http://127.0.0.1:${ports.http}/v1`;
    await start([], [endpoint, 'https://api.remote.test/v1']);
    expect(proxy!.forwards).toEqual([{ port: ports.http, socketPath: join(dir, `endpoint-${ports.http}.sock`) }]);
    const viaProxy = await request(proxy!.socketPath, `${endpoint}/models`);
    expect(viaProxy.status).toBe(200);
    expect(JSON.parse(viaProxy.body)).toMatchObject({ url: '/v1/models' });
    const viaForward = await request(proxy!.forwards[0]!.socketPath, '/v1/chat', { method: 'POST' }, '{}');
    expect(JSON.parse(viaForward.body)).toMatchObject({ method: 'POST', url: '/v1/chat', body: '{}' });
    expect((await request(proxy!.socketPath, `http://127.0.0.1:${ports.echo}/`)).status).toBe(403);
    expect(decisions).toEqual([
      { host: '127.0.0.1', port: ports.http, allowed: true, via: 'http' },
      { host: '127.0.0.1', port: ports.http, allowed: true, via: 'endpoint' },
      expect.objectContaining({ host: '127.0.0.1', port: ports.echo, allowed: false }),
    ]);
  });

  it('answers 502 when an allowed upstream does not answer or a name does not resolve, and records which', async () => {
    await start(['allowed.test', 'nowhere.test']);
    const tunnel = await connect(`allowed.test:${ports.closed}`);
    expect(tunnel.status).toBe(502);
    tunnel.socket.destroy();
    expect((await request(proxy!.socketPath, 'http://nowhere.test/')).status).toBe(502);
    expect(decisions).toEqual([
      { host: 'allowed.test', port: ports.closed, allowed: true, reason: expect.stringContaining('ECONNREFUSED'), via: 'connect' },
      // Never resolved, so never checked against the address rule: not recorded as allowed.
      { host: 'nowhere.test', port: 80, allowed: false, reason: expect.stringMatching(/^not resolved: .*ENOTFOUND/), via: 'http' },
    ]);
    expect(proxy!.deniedCount).toBe(1);
  });

  it('ends open tunnels on close, and closes twice without complaint', async () => {
    await start(['allowed.test']);
    const { socket } = await connect(`allowed.test:${ports.echo}`);
    socket.write('ping');
    await new Promise((ok) => socket.once('data', ok));
    const ended = new Promise((ok) => socket.on('close', ok));
    await proxy!.close();
    await ended;
    await expect(proxy!.close()).resolves.toBeUndefined();
  });

  it('answers 400 to a malformed request line, an origin-form request and a bad CONNECT target, and keeps serving', async () => {
    await start(['allowed.test']);
    expect(await raw('NOT A REQUEST\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw('GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw('CONNECT allowed.test HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw('CONNECT allowed.test:99999 HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect((await request(proxy!.socketPath, `http://allowed.test:${ports.http}/`)).status).toBe(200);
    expect(decisions).toHaveLength(1);
  });

  it('refuses a socket folder it cannot listen in and an endpoint that is not a URL', async () => {
    const options = { policy: new EgressPolicy([]), onDecision: () => undefined, allowlistHint: HINT };
    for (const bad of [join(dir, 'missing'), join(dir, 'x'.repeat(100))]) {
      await expect(startEgressProxy({ ...options, dir: bad, endpoints: [] })).rejects.toMatchObject({ code: 'sandbox_unavailable' });
    }
    await expect(startEgressProxy({ ...options, dir, endpoints: ['localhost:8080'] })).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('holds the sandbox to its connection cap over every socket: one more is closed at once, reported once, and a freed slot serves again', async () => {
    const endpoint = `http://127.0.0.1:${ports.http}/v1`;
    await start(['allowed.test'], [endpoint], 3);
    const opened = (path: string) =>
      new Promise<net.Socket>(
        (ok, fail) =>
          void net
            .connect(path)
            .once('connect', function (this: net.Socket) {
              ok(this);
            })
            .once('error', fail),
      );
    const held = [await opened(proxy!.socketPath), await opened(proxy!.socketPath), await opened(proxy!.forwards[0]!.socketPath)];
    await new Promise((ok) => setTimeout(ok, 50));
    // A flood past the cap: each one is closed by the proxy without an answer.
    const flood = [await answerOf(proxy!.socketPath)];
    flood.push(...(await Promise.all(Array.from({ length: 40 }, (_, i) => answerOf(i % 2 ? proxy!.forwards[0]!.socketPath : proxy!.socketPath)))));
    expect(flood.every((answer) => answer === '')).toBe(true);
    const refused = decisions.filter((d) => !d.allowed);
    // One report for the whole flood, under the socket first refused: the proxy's, which names no destination.
    expect(refused).toEqual([{ host: '*', port: 0, allowed: false, via: 'connect', reason: expect.stringContaining('its limit (runtime.sandbox.limits.connections)') }]);
    expect(refused[0]!.reason).toMatch(/^the sandbox holds 3 connections to the egress proxy/);
    held[0]!.destroy();
    await new Promise((ok) => setTimeout(ok, 50));
    expect((await request(proxy!.socketPath, `http://allowed.test:${ports.http}/`)).status).toBe(200);
    for (const socket of held) socket.destroy();
  });
});
