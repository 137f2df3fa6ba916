import net from 'node:net';
import type { EgressGate } from './egress-gate.js';
import { splice } from './proxy-plumbing.js';

/** A server that joins each connection from the sandbox to a loopback model endpoint at host:port, within the gate's cap. */
export function createEndpointForwarder(gate: EgressGate, host: string, port: number): net.Server {
  return net.createServer((client) => {
    if (!gate.admitClient(client, { host, port, via: 'endpoint' })) return;
    gate.dial(host, port).then(
      (upstream) => {
        gate.decide({ host, port, allowed: true, via: 'endpoint' });
        if (client.destroyed) return void upstream.destroy();
        splice(client, upstream);
      },
      (error: Error) => {
        gate.decide({ host, port, allowed: true, reason: error.message, via: 'endpoint' });
        client.destroy();
      },
    );
  });
}
