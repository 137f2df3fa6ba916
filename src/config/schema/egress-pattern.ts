import { isIP } from 'node:net';
import { WaveError } from '../../core/errors/errors.js';

/** One allowlist entry: a host (or, with wildcard, a domain whose subdomains match) and an optional port. */
export interface EgressPattern {
  host: string;
  wildcard: boolean;
  port?: number;
  raw: string;
}

const LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/;

/** Lower-cases a host, drops a trailing dot and IPv6 brackets, and writes IPv6 literals in their canonical form. */
export function normalizeHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  // '0:0::1' and '::1' must compare equal; the WHATWG URL parser canonicalises IPv6.
  if (isIP(h) === 6 && !h.includes('%')) h = new URL(`http://[${h}]/`).hostname.slice(1, -1);
  return h;
}

/** Parses one allowlist entry; a WaveError('manifest_invalid', …, {hint}) naming the entry when it is malformed. */
export function parseEgressPattern(entry: string): EgressPattern {
  const fail = (why: string): never => {
    throw new WaveError('manifest_invalid', `Allowlist entry "${entry}" is not a host pattern: ${why}.`, {
      hint: 'Write a host name, *.domain or an IP address, each with an optional :port, like api.example.com, *.example.com:443 or [::1]:8080.',
    });
  };
  const text = entry.trim();
  if (text === '') fail('it is empty');
  if (text.includes('://')) fail('it has a scheme; list the host only');
  if (text.includes('/')) fail('it has a path; list the host only');

  let host = text;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1] ?? '';
    portText = bracketed[2];
    if (isIP(host) !== 6) fail('the bracketed part is not an IPv6 address');
  } else if (isIP(text) === 6) {
    host = text; // a bare IPv6 literal has no room for a port
  } else if (text.includes(':')) {
    const at = text.lastIndexOf(':');
    host = text.slice(0, at);
    portText = text.slice(at + 1);
    if (host.includes(':')) fail('write an IPv6 address with a port as [address]:port');
  }

  let port: number | undefined;
  if (portText !== undefined) {
    port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
    if (!(port >= 1 && port <= 65535)) fail(`the port "${portText}" is not a number from 1 to 65535`);
  }

  host = normalizeHost(host);
  const wildcard = host.startsWith('*.');
  if (wildcard) host = host.slice(2);
  if (isIP(host) === 0) {
    if (host.includes('*')) fail("'*' may only stand as the whole first label, as in *.example.com");
    if (!host.split('.').every((label) => LABEL.test(label))) fail(`"${host}" is not a valid host name`);
  } else if (wildcard && isIP(host) === 6) {
    fail('an IPv6 address cannot take a wildcard');
  }
  return port === undefined ? { host, wildcard, raw: entry } : { host, wildcard, port, raw: entry };
}
