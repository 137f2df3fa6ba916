import type { EgressDecision } from '../../sandbox/egress/egress-gate.js';

/** The hosts the browser's egress proxy refused, so an action that asked for one fails saying so rather than with Chromium's code. */
export class EgressRefusals {
  private readonly refused = new Map<string, string>();

  constructor(private readonly allowlistKeys: string) {}

  /** Keeps a refusal of the proxy (by host:port). */
  note(decision: EgressDecision): void {
    if (!decision.allowed) this.refused.set(`${decision.host}:${decision.port}`, decision.reason ?? 'not allowed');
  }

  /** Why the proxy refused `url`'s host, in one line; undefined when it did not (or the URL does not parse). */
  of(url: string): string | undefined {
    if (!URL.canParse(url)) return undefined;
    const { hostname, port, protocol } = new URL(url);
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const key = `${host}:${port || (protocol === 'https:' ? 443 : 80)}`;
    const reason = this.refused.get(key);
    return reason === undefined ? undefined : `${key} is outside the step's egress allowlist (${reason}); list it in ${this.allowlistKeys}`;
  }
}
