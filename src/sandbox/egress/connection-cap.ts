import type net from 'node:net';
import type { Duplex } from 'node:stream';
import type { EgressRecord } from '../types.js';

/** At most one report of refused connections per this many ms: a flood must not flood the record too. */
const REPORT_EVERY_MS = 1000;

/** What a refused connection is recorded under: the endpoint a forwarder serves, or `*`:0 for the proxy socket. */
export type RefusalTarget = Pick<EgressRecord, 'host' | 'port' | 'via'>;

/**
 * The connections a sandbox holds to its egress proxy, over every socket of it, held to `max`: one more is closed at
 * once, and refusals are reported (to `report`, as a reason) at most once a second with how many there were.
 */
export class ConnectionCap {
  private held = 0;
  private unreported = 0;
  private refused = 0;
  private reportedAt = -Infinity;

  constructor(
    private readonly max: number,
    private readonly report: (target: RefusalTarget, reason: string) => void,
  ) {}

  /** Takes a new connection (its errors end it, never the process), or closes it at once when the cap is reached. */
  admit(socket: Duplex, target: RefusalTarget): boolean {
    socket.on('error', () => void socket.destroy());
    if (this.held >= this.max) {
      socket.destroy();
      this.refuse(this.reachedReason(), target);
      return false;
    }
    this.held += 1;
    socket.on('close', () => (this.held -= 1));
    return true;
  }

  /** Holds a server to the cap too (the kernel's backstop), and turns an accept that fails (EMFILE) into a refusal. */
  watch(server: net.Server, target: RefusalTarget): void {
    server.maxConnections = this.max;
    server.on('drop', () => this.refuse(this.reachedReason(), target));
    server.on('error', (error: NodeJS.ErrnoException) => this.refuse(`the proxy could not accept a connection: ${error.code ?? error.message}`, target));
  }

  /** Counts one refused connection and reports, unless a report went out less than REPORT_EVERY_MS ago. */
  private refuse(why: string, target: RefusalTarget): void {
    this.unreported += 1;
    this.refused += 1;
    const now = Date.now();
    if (now - this.reportedAt < REPORT_EVERY_MS) return;
    this.reportedAt = now;
    const reason = `${why}; ${this.unreported} connection(s) refused since the last report, ${this.refused} in all`;
    this.unreported = 0;
    this.report(target, reason);
  }

  /** Why a connection was refused at the cap, naming the key that raises it. */
  private reachedReason(): string {
    return `the sandbox holds ${this.max} connections to the egress proxy, its limit (runtime.sandbox.limits.connections)`;
  }
}
