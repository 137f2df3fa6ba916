import type { RunRecord } from '../state/record/run-record.js';

/** How many of the run's attempts and model requests `wave run --simulate` answered (its child runs count in their own records). */
export function simulatedAttempts(record: RunRecord): number {
  return Object.values(record.steps).reduce((sum, step) => sum + (step.simulated ?? 0), 0);
}

/** `1 attempt`, `3 attempts`. */
export function attemptsText(count: number): string {
  return `${count} attempt${count === 1 ? '' : 's'}`;
}

/** A simulated run in brief, `simulated: 3 attempts`; '' for a live run. */
export function simulatedRunText(record: RunRecord): string {
  return record.options.simulate ? `simulated: ${attemptsText(simulatedAttempts(record))}` : '';
}
