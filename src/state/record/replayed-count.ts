import type { RunRecord } from './run-record.js';

/** How many of a replayed run's attempts and model requests its recording served (its child runs' included), and how many agent attempts ran live; undefined for a run that is no replay. */
export function replayCounts(record: RunRecord): { replayed: number; live: number } | undefined {
  if (!record.options.replayOf) return undefined;
  const steps = Object.values(record.steps);
  const replayed = steps.reduce((sum, step) => sum + (step.replayed ?? 0), 0);
  // Command steps run for real in a replay too: only the attempts a recording could have served count as live.
  const live = steps.reduce((sum, step) => sum + step.attempts.filter((a) => !a.replayed && a.adapterType !== 'process').length, 0);
  return { replayed, live };
}
