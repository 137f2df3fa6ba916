import type { RunRecord } from '../state/record/run-record.js';
import { replayCounts } from '../state/record/replayed-count.js';
import { attemptsText } from './simulated-text.js';

/** A replayed run in brief, `replayed: 3 attempts, live: 1 attempt`; '' for a run that is no replay. */
export function replayedRunText(record: RunRecord): string {
  const counts = replayCounts(record);
  if (!counts) return '';
  return `replayed: ${attemptsText(counts.replayed)}${counts.live ? `, live: ${attemptsText(counts.live)}` : ''}`;
}
