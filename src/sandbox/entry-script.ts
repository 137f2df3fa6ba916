/** Where the attempt's host folder (proxy sockets, this script) appears inside the sandbox. */
export const INSIDE_DIR = '/run/wave';

/** A loopback port inside the sandbox forwarded to a unix socket of the attempt's folder. */
export interface InsideForward {
  port: number;
  /** The socket's file name in the attempt's folder. */
  socket: string;
}

/** The /proc/net/tcp form of 127.0.0.1:<port> listening, to wait for a forwarder without a timer. */
function listeningLine(port: number): string {
  return ` 0100007F:${port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A `;
}

/**
 * The script every sandboxed process starts through: one socat per forward, tied to the step's program (127.0.0.1:<port> inside -> a unix socket
 * Wave serves outside, since the sandbox has no network), a wait until each listens, then `exec "$@"` so the step's
 * program is the process Wave watches.
 */
export function entryScript(forwards: readonly InsideForward[]): string {
  // Each forwarder dies with its parent, which `exec` makes the step's program: a forwarder left running would keep
  // the sandbox alive after the program ended (seen when Wave itself was killed).
  const start = forwards.map((f) => `setpriv --pdeathsig KILL socat TCP-LISTEN:${f.port},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:${INSIDE_DIR}/${f.socket} 2>/dev/null &`);
  const ready = forwards.map((f) => `grep -q '${listeningLine(f.port)}' /proc/net/tcp`).join(' && ');
  return ['#!/bin/sh', ...start, ...(forwards.length ? [`n=0; until ${ready}; do n=$((n+1)); [ "$n" -gt 5000 ] && break; done`] : []), 'exec "$@"', ''].join('\n');
}
