import net from 'node:net';
import type { Duplex } from 'node:stream';
import { normalizeHost } from '../../config/schema/egress-pattern.js';
import { ConnectionCap, type RefusalTarget } from './connection-cap.js';
import { addressClass, type EgressPolicy } from './egress-policy.js';
import { hostPort } from './proxy-plumbing.js';

/** One connection the proxy allowed or denied, as it is recorded. */
export interface EgressDecision {
  host: string;
  port: number;
  allowed: boolean;
  reason?: string;
  via: 'connect' | 'http' | 'endpoint';
}

/** Resolves a host name to its addresses. */
export type Resolver = (host: string) => Promise<string[]>;

/** What the gate judges by and whom it tells. */
export interface EgressGateOptions {
  policy: EgressPolicy;
  /** The model endpoints, always allowed and listed exactly. */
  endpointPolicy: EgressPolicy;
  resolve: Resolver;
  onDecision: (decision: EgressDecision) => void;
  /** Where an allowlist is edited, for the 403 body. */
  allowlistHint: string;
  /** Connections the sandbox may hold open at once, over every socket of the proxy. */
  maxConnections: number;
}

type Verdict = { address: string } | { denied: string };

/** An answer to give instead of a connection: its HTTP status and body. */
export interface Refusal {
  status: number;
  body: string;
}

/**
 * The egress proxy's judgement and bookkeeping, shared by all its sockets: which host:port may be reached, the record
 * of each decision, and the connections held open, capped.
 */
export class EgressGate {
  private denied = 0;
  private readonly open = new Set<Duplex>();
  private readonly cap: ConnectionCap;

  constructor(private readonly options: EgressGateOptions) {
    this.cap = new ConnectionCap(options.maxConnections, (target, reason) => this.decide({ ...target, allowed: false, reason }));
  }

  /** Connections denied so far. */
  get deniedCount(): number {
    return this.denied;
  }

  /** Records a decision: a denial is counted, and onDecision is told. */
  decide(decision: EgressDecision): void {
    if (!decision.allowed) this.denied += 1;
    try {
      this.options.onDecision(decision);
    } catch {
      // An audit callback that throws must not take the proxy down.
    }
  }

  /** Connects to address:port; resolves with the socket once connected, rejects on failure. */
  dial(address: string, port: number): Promise<net.Socket> {
    return new Promise((ok, fail) => {
      const socket = net.connect({ host: address, port });
      this.open.add(socket.on('close', () => this.open.delete(socket)));
      // The listener stays: a later error (after ok) must not go unhandled before the socket is piped.
      socket.once('connect', () => ok(socket)).on('error', fail);
    });
  }

  /** Judges host:port, records the decision and connects: the upstream socket, or the status and body to answer. */
  async admit(host: string, port: number, via: EgressDecision['via']): Promise<net.Socket | Refusal> {
    const unreachable = (reason: string) => ({ status: 502, body: `Wave egress proxy: cannot reach ${hostPort(host, port)}: ${reason}\n` });
    let verdict: Verdict;
    try {
      verdict = await this.judge(host, port);
    } catch (error) {
      // Not resolved, so never checked against the address rule: nothing was reached, and it is not counted as allowed.
      const reason = `not resolved: ${(error as Error).message}`;
      this.decide({ host, port, allowed: false, reason, via });
      return unreachable(reason);
    }
    if ('denied' in verdict) {
      this.decide({ host, port, allowed: false, reason: verdict.denied, via });
      return { status: 403, body: this.refusal(host, port, verdict.denied) };
    }
    try {
      const upstream = await this.dial(verdict.address, port);
      this.decide({ host, port, allowed: true, via });
      return upstream;
    } catch (error) {
      const reason = (error as Error).message;
      this.decide({ host, port, allowed: true, reason, via });
      return unreachable(reason);
    }
  }

  /** Takes a new connection from the sandbox into the open set, unless the cap refuses it; false when refused. */
  admitClient(socket: Duplex, target: RefusalTarget): boolean {
    if (!this.cap.admit(socket, target)) return false;
    this.open.add(socket.on('close', () => this.open.delete(socket)));
    return true;
  }

  /** Holds a server of the proxy to the connection cap. */
  watch(server: net.Server, target: RefusalTarget): void {
    this.cap.watch(server, target);
  }

  /** Ends every connection open through the proxy, either way. */
  destroyOpen(): void {
    for (const socket of this.open) socket.destroy();
  }

  /** Applies the allowlist, then the address rule to the resolved addresses; the address is the one to connect to. */
  private async judge(host: string, port: number): Promise<Verdict> {
    const { policy, endpointPolicy } = this.options;
    const exact = endpointPolicy.listsExactly(host, port) || policy.listsExactly(host, port);
    if (!exact && !policy.match(host, port)) return { denied: 'no entry matches it' };
    const name = normalizeHost(host);
    if (net.isIP(name)) return exact ? { address: name } : { denied: 'an IP address must be listed exactly' };
    const addresses = await this.options.resolve(name);
    if (addresses.length === 0) throw new Error(`${name} resolves to no address`);
    for (const address of addresses) {
      const kind = addressClass(address);
      // A wildcard must not reach internal services through a name someone points at them.
      if (kind !== 'public' && !exact) return { denied: `it resolves to ${address}, a ${kind} address, which must be listed exactly` };
    }
    // Connect to the address that was checked; resolving again would let DNS rebinding slip past.
    return { address: addresses[0] as string };
  }

  private refusal(host: string, port: number, reason: string): string {
    const { policy, allowlistHint } = this.options;
    const allowed = policy.entries.length > 0 ? policy.entries.join(', ') : 'nothing';
    return `Wave egress proxy: ${hostPort(host, port)} is not on this step's allowlist (${reason}). Allowed: ${allowed}. To allow it, add it to ${allowlistHint}.\n`;
  }
}
