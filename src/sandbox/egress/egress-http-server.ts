import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { normalizeHost } from '../../config/schema/egress-pattern.js';
import type { RefusalTarget } from './connection-cap.js';
import type { EgressGate } from './egress-gate.js';
import { endToEnd, hostPort, splice } from './proxy-plumbing.js';

/**
 * The egress proxy's HTTP server: CONNECT host:port tunnels and absolute http:// requests, each let through only as
 * the gate decides; connections are counted under `target` until their request is read.
 */
export function createProxyServer(gate: EgressGate, target: RefusalTarget): http.Server {
  const server = http.createServer((req, res) => void onRequest(gate, req, res));
  server.on('connection', (socket: net.Socket) => void gate.admitClient(socket, target));
  // The server stops watching a socket for errors once it hands it over for CONNECT.
  server.on(
    'connect',
    (req: http.IncomingMessage, client: Duplex, head: Buffer) =>
      void onConnect(
        gate,
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
  return server;
}

async function onConnect(gate: EgressGate, req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
  // After CONNECT the socket is ours: answers are written raw.
  const raw = (status: number, body: string): void =>
    void client.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  const target = /^(\[[^\]]+\]|[^:[\]/@]+):(\d{1,5})$/.exec(req.url ?? '');
  const port = Number(target?.[2]);
  if (!target || !(port >= 1 && port <= 65535)) return raw(400, 'Wave egress proxy: CONNECT needs host:port.\n');
  const host = normalizeHost(target[1] as string);
  const upstream = await gate.admit(host, port, 'connect');
  if (!(upstream instanceof net.Socket)) return raw(upstream.status, upstream.body);
  if (client.destroyed) return void upstream.destroy();
  client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  if (head.length > 0) upstream.write(head);
  splice(client, upstream);
}

async function onRequest(gate: EgressGate, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const reply = (status: number, body: string): void => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(body);
  };
  const url = URL.canParse(req.url ?? '') ? new URL(req.url ?? '') : undefined;
  if (url?.protocol !== 'http:') return reply(400, 'Wave egress proxy: expected CONNECT host:port or an absolute http:// URL.\n');
  const host = normalizeHost(url.hostname);
  const port = Number(url.port || 80);
  const upstream = await gate.admit(host, port, 'http');
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
