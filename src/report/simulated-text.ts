import type { RunRecord } from '../state/record/run-record.js';
import { simulatedAttempts } from '../state/record/simulated-count.js';

/** `1 attempt`, `3 attempts`. */
export function attemptsText(count: number): string {
  return `${count} attempt${count === 1 ? '' : 's'}`;
}

/** A simulated run in brief, `simulated: 3 attempts`; '' for a live run. */
export function simulatedRunText(record: RunRecord): string {
  return record.options.simulate ? `simulated: ${attemptsText(simulatedAttempts(record))}` : '';
}
