import { BlockList, isIP } from 'node:net';
import { normalizeHost, parseEgressPattern, type EgressPattern } from '../../config/schema/egress-pattern.js';

export type AddressClass = 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'public';

/** The step's allowlist: decides which host:port destinations a pattern admits. */
export class EgressPolicy {
  /** The entries, as written, for messages. */
  readonly entries: readonly string[];
  private readonly patterns: readonly EgressPattern[];

  constructor(entries: readonly string[]) {
    this.entries = [...entries];
    this.patterns = entries.map(parseEgressPattern);
  }

  /** Does a pattern match host:port at all (before address checks)? Returns the matching pattern or undefined. */
  match(host: string, port: number): EgressPattern | undefined {
    const h = normalizeHost(host);
    const fits = (p: EgressPattern): boolean => (p.port === undefined || p.port === port) && (p.wildcard ? h.endsWith(`.${p.host}`) : h === p.host);
    // An exact entry is the more telling one to report.
    return this.patterns.find((p) => !p.wildcard && fits(p)) ?? this.patterns.find(fits);
  }

  /** True when an entry names exactly this host (not via wildcard): only those may reach non-public addresses or be IP literals. */
  listsExactly(host: string, port: number): boolean {
    return this.match(host, port)?.wildcard === false;
  }
}

/** Builds a BlockList from CIDR strings ('10.0.0.0/8', '::1/128'). */
function ranges(...cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = '', bits = ''] = cidr.split('/');
    list.addSubnet(address, Number(bits), isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

// Checked in this order: metadata addresses also sit inside link-local, CGNAT and ULA ranges. Built on first use: a
// run whose steps reach no network never needs them.
let classes: ReadonlyArray<[AddressClass, BlockList]> | undefined;
const addressClasses = (): ReadonlyArray<[AddressClass, BlockList]> =>
  (classes ??= [
    ['metadata', ranges('169.254.169.254/32', '100.100.100.200/32', 'fd00:ec2::254/128')],
    ['unspecified', ranges('0.0.0.0/8', '::/128')],
    ['loopback', ranges('127.0.0.0/8', '::1/128')],
    ['link-local', ranges('169.254.0.0/16', 'fe80::/10')],
    ['private', ranges('10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7')],
  ]);

/** Classifies an IP address; IPv4-mapped IPv6 (::ffff:10.0.0.1) is classified by its IPv4 part. */
export function addressClass(address: string): AddressClass {
  // A zone index (fe80::1%eth0) names an interface, not part of the address.
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) throw new TypeError(`Not an IP address: ${address}`);
  // BlockList matches IPv4-mapped IPv6 addresses against IPv4 ranges by itself.
  const type = family === 6 ? 'ipv6' : 'ipv4';
  return addressClasses().find(([, list]) => list.check(bare, type))?.[0] ?? 'public';
}
