import type { StreamEvent } from '../../adapters/types.js';

/** How often a running step's last printed line is recorded at most: often enough to watch, rarely enough to keep the journal small. */
const LINE_EVERY_MS = 1_000;

/**
 * Passes on the last line a running process printed (its `output` events carry it) when it changed, at most once a
 * second: what the live view shows under a running command.
 */
export function lastLineReporter(publish: (line: string) => void, now: () => number = Date.now): (event: Extract<StreamEvent, { kind: 'output' }>) => void {
  let shown: string | undefined;
  let shownAt = -Infinity;
  return (event) => {
    const line = event.lastLine;
    if (!line || line === shown || now() - shownAt < LINE_EVERY_MS) return;
    shown = line;
    shownAt = now();
    publish(line);
  };
}
