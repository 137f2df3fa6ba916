import { hostname, networkInterfaces } from 'node:os';

/** The addresses and names this machine answers to besides loopback: its interfaces' addresses and its host name. */
function ownAddresses(): Set<string> {
  const own = new Set([hostname().toLowerCase()]);
  for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) own.add(entry.address.toLowerCase());
  return own;
}

/** Whether `host` (a URL's hostname) is this machine: loopback in any spelling, the unspecified address, or an own address. */
export function isLocalHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare.endsWith('.localhost') || bare === '0.0.0.0' || bare === '::' || bare === '::1') return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(bare)) return true;
  // IPv4-mapped loopback, as URL writes it (::ffff:7f00:1) or as typed (::ffff:127.0.0.1).
  if (/^::ffff:(127\.|7f[0-9a-f]{2}:)/.test(bare)) return true;
  return ownAddresses().has(bare);
}

/** Whether a model endpoint's URL is served on this machine, where no public price applies. */
export function isLocalEndpoint(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return isLocalHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
