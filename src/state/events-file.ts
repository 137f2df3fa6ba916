import { existsSync, readFileSync } from 'node:fs';
import { eventSchemas } from '../event-schema.js';
import type { RunEvent } from '../events.js';
import { ioError } from '../io-error.js';

/** Every event of an events.ndjson file (none when it is absent); lines that are torn or not events are skipped. */
export function readEventsFile(file: string): RunEvent[] {
  return parseEventLines(readEventsText(file));
}

/** The text of an events.ndjson file, empty when it is absent. */
export function readEventsText(file: string): string {
  if (!existsSync(file)) return '';
  try {
    return readFileSync(file, 'utf8');
  } catch (cause) {
    throw ioError('read', file, cause);
  }
}

/** How many lines of NDJSON text hold anything: at least as many as the events parseEventLines finds in it. */
export function filledLineCount(text: string): number {
  let count = 0;
  for (let start = 0; start < text.length;) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    if (stop > start) count += 1;
    start = stop + 1;
  }
  return count;
}

/** The events of NDJSON text; lines that are torn or not events are skipped. */
export function parseEventLines(text: string): RunEvent[] {
  const events: RunEvent[] = [];
  const { RunEventSchema } = eventSchemas();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = RunEventSchema.safeParse(JSON.parse(line));
      if (parsed.success) events.push(parsed.data);
    } catch {
      // A torn last line (a kill mid-write) is skipped, never fatal.
    }
  }
  return events;
}
