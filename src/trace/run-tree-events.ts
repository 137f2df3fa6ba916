import { join } from 'node:path';
import type { RunEvent } from '../events.js';
import { readEventsFile } from '../state/events-file.js';
import { EVENTS_FILE, RunStore } from '../state/run-store.js';

/** The run's events and its child runs' (theirs too, to any depth), in the order they happened; a parent's first at the same moment. */
export function runTreeEvents(runsRoot: string, runId: string): RunEvent[] {
  const children = new Map<string, string[]>();
  for (const record of RunStore.list(runsRoot)) {
    if (record.parentId === undefined) continue;
    children.set(record.parentId, [...(children.get(record.parentId) ?? []), record.id]);
  }
  const ids = [runId];
  for (let next = 0; next < ids.length; next++) ids.push(...(children.get(ids[next]!) ?? []));
  const events = ids.flatMap((id) => readEventsFile(join(runsRoot, id, EVENTS_FILE)));
  // Array sort is stable: events of one moment keep their run's order and the parent's place before its children.
  return events
    .map((event, index) => ({ event, index, at: Date.parse(event.ts) }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ event }) => event);
}
