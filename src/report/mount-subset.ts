import { safeLine } from '../core/terminal-safe.js';
import type { RunEvent } from '../events.js';

type MountSubsetEvent = Extract<RunEvent, { type: 'mount_subset' }>;

/** `narrowed by a.b.c to 3 files; skipped 1: ../x (climbs out with `..`)`, or the fallback to the whole source. */
export function describeSubset(event: MountSubsetEvent): string {
  if (event.fallback !== undefined) return `not narrowed by ${event.subsetFrom}: ${event.fallback}`;
  const files = `${event.copied} file${event.copied === 1 ? '' : 's'}`;
  if (event.skippedTotal === 0) return `narrowed by ${event.subsetFrom} to ${files}`;
  const listed = event.skipped.map((s) => `${safeLine(s.path)} (${s.reason})`).join(', ');
  const more = event.skippedTotal > event.skipped.length ? ` and ${event.skippedTotal - event.skipped.length} more` : '';
  return `narrowed by ${event.subsetFrom} to ${files}; skipped ${event.skippedTotal}: ${listed}${more}`;
}
