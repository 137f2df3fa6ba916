import type { RunRecord } from './run-record.js';

/** How many attempts and model requests `wave run --simulate` answered in the run, its child runs' included. */
export function simulatedAttempts(record: RunRecord): number {
  return Object.values(record.steps).reduce((sum, step) => sum + (step.simulated ?? 0), 0);
}
