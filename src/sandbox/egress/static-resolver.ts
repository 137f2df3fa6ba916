import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { WaveError } from '../../core/errors/errors.js';
import type { Resolver } from './egress-proxy.js';

/** The variable naming host=address pairs the egress proxy resolves itself, like curl's --resolve. */
export const RESOLVE_VARIABLE = 'WAVE_EGRESS_RESOLVE';

/**
 * A resolver answering `host=address[,host=address…]` from WAVE_EGRESS_RESOLVE and asking DNS for the rest: lets an
 * allowlist be tried offline against local servers. The answers still pass the proxy's address checks.
 */
export function resolverFromEnv(env: NodeJS.ProcessEnv): Resolver | undefined {
  const text = env[RESOLVE_VARIABLE]?.trim();
  if (!text) return undefined;
  const table = new Map<string, string>();
  for (const pair of text.split(',')) {
    const [host, address] = pair.split('=').map((part) => part.trim());
    if (!host || !address || isIP(address) === 0) {
      throw new WaveError('invalid_argument', `${RESOLVE_VARIABLE} has a malformed entry "${pair}"`, {
        hint: 'Write host=address pairs (the address an IP) separated by commas, e.g. api.test=127.0.0.1.',
      });
    }
    table.set(host.toLowerCase(), address);
  }
  return async (host) => {
    const fixed = table.get(host.toLowerCase());
    if (fixed) return [fixed];
    return (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  };
}
