import type http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';

// Headers that describe one hop, not the request (RFC 9110 §7.6.1), plus the proxy's own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Copies headers without hop-by-hop ones, Proxy-* ones and those the Connection header names. */
export function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim());
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k) && !k.startsWith('proxy-') && !named.includes(k)));
}

/** host:port, with IPv6 in brackets. */
export const hostPort = (host: string, port: number): string => (net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`);

/** Pipes two sockets both ways; an error or close on either side ends both. */
export function splice(a: Duplex, b: Duplex): void {
  const end = (): void => void (a.destroy(), b.destroy());
  for (const s of [a, b]) s.on('error', end).on('close', end);
  a.pipe(b).pipe(a);
}
