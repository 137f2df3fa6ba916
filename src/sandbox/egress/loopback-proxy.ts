import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SANDBOX_LIMITS } from '../defaults.js';
import { EgressGate, type EgressDecision, type Resolver } from './egress-gate.js';
import { createProxyServer } from './egress-http-server.js';
import { EgressPolicy } from './egress-policy.js';
import { defaultResolver } from './egress-proxy.js';
import { resolverFromEnv } from './static-resolver.js';

export interface LoopbackProxyOptions {
  /** The step's allowlist: runtime.sandbox.default_allowed_domains plus the persona's sandbox.allowed_domains. */
  allowedDomains: readonly string[];
  onDecision: (decision: EgressDecision) => void;
  /** Where an allowlist is edited, for the 403 body. */
  allowlistHint: string;
  /** How names resolve; WAVE_EGRESS_RESOLVE's table, else DNS, when absent. */
  resolver?: Resolver;
}

/** The egress proxy on a loopback TCP port, for a process Wave starts on the host that takes a proxy URL (the browser). */
export interface LoopbackProxy {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Closes the server and every open tunnel; never rejects. */
  close(): Promise<void>;
}

/**
 * Starts the sandbox's allowlisting proxy on 127.0.0.1 at a free port: the same gate (allowlist, address rules, records,
 * connection cap) as a sandbox's proxy, for a client that cannot use a unix socket.
 */
export async function startLoopbackProxy(options: LoopbackProxyOptions): Promise<LoopbackProxy> {
  const gate = new EgressGate({
    policy: new EgressPolicy(options.allowedDomains),
    endpointPolicy: new EgressPolicy([]),
    resolve: options.resolver ?? resolverFromEnv(process.env) ?? defaultResolver,
    onDecision: options.onDecision,
    allowlistHint: options.allowlistHint,
    maxConnections: DEFAULT_SANDBOX_LIMITS.connections,
  });
  const target = { host: '*', port: 0, via: 'connect' as const };
  const server = createProxyServer(gate, target);
  gate.watch(server, target);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      (closing ??= new Promise<void>((done) => {
        gate.destroyOpen();
        server.close(() => done());
      })),
  };
}
