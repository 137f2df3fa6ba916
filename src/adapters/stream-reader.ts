import type { AgentStream } from './agent-cli.js';
import type { StreamEvent } from './types.js';

/**
 * Turns an attempt's output lines into events and passes them on, noting the first session id the stream reports
 * (kept when the attempt is stopped before its CLI's result). A model served on this machine costs nothing, so a
 * cost the CLI reports by its own price list is left out there, as attemptCost leaves it out of the final figure.
 */
export class StreamReader {
  /** The session id the stream reported first. */
  sessionId: string | undefined;

  constructor(
    private readonly stream: AgentStream,
    private readonly onEvent: (event: StreamEvent) => void,
    private readonly servedLocally: boolean,
  ) {}

  /** Passes on the events of one line of stdout or stderr. */
  line(line: string, from: 'stdout' | 'stderr'): void {
    for (const event of from === 'stdout' ? this.stream.line(line) : (this.stream.stderrLine?.(line) ?? [])) {
      if (event.kind === 'system' && event.sessionId) this.sessionId ??= event.sessionId;
      this.onEvent(this.servedLocally ? withoutCost(event) : event);
    }
  }
}

/** An event without the cost a usage or result event carries. */
function withoutCost(event: StreamEvent): StreamEvent {
  if ((event.kind !== 'usage' && event.kind !== 'result') || event.costUsd === undefined) return event;
  const { costUsd: _dropped, ...rest } = event;
  return rest;
}
