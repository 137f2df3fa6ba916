import { existsSync, readFileSync } from 'node:fs';
import { eventSchemas } from '../event-schema.js';
import type { RunEvent } from '../events.js';
import { ioError } from '../io-error.js';

/** Every event of an events.ndjson file (none when it is absent); lines that are torn or not events are skipped. */
export function readEventsFile(file: string): RunEvent[] {
  if (!existsSync(file)) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw ioError('read', file, cause);
  }
  return parseEventLines(text);
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
