/** Where the attempt's host folder (proxy sockets, this script) appears inside the sandbox. */
export const INSIDE_DIR = '/run/wave';

/** A loopback port inside the sandbox forwarded to a unix socket of the attempt's folder. */
export interface InsideForward {
  port: number;
  /** The socket's file name in the attempt's folder. */
  socket: string;
  /** The file name, in the attempt's folder, of the FIFO its forwarder's log goes to: it says when the port listens. */
  ready: string;
}

/**
 * The script every sandboxed process starts through: one socat per forward, tied to the step's program (127.0.0.1:<port> inside -> a unix socket
 * Wave serves outside, since the sandbox has no network), a wait until each listens, then `exec "$@"` so the step's
 * program is the process Wave watches.
 */
export function entryScript(forwards: readonly InsideForward[]): string {
  // Each forwarder dies with its parent, which `exec` makes the step's program: a forwarder left running would keep
  // the sandbox alive after the program ended (seen when Wave itself was killed).
  const start = forwards.map(
    (f) => `setpriv --pdeathsig KILL socat -d -d TCP-LISTEN:${f.port},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:${INSIDE_DIR}/${f.socket} 2>${INSIDE_DIR}/${f.ready} &`,
  );
  // A blocking read, not a poll: socat logs "listening on" once its port is open, and a socat that failed has exited,
  // which ends the read. Its later log lines find the pipe closed, which socat ignores (it ignores SIGPIPE).
  const ready = forwards.map((f) => `while read -r line; do case $line in *" listening on "*) break ;; esac; done < ${INSIDE_DIR}/${f.ready}`);
  return ['#!/bin/sh', ...start, ...ready, 'exec "$@"', ''].join('\n');
}
