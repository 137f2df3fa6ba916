import type { RunRecord } from '../state/record/run-record.js';
import { attemptsText } from './simulated-text.js';

/** A replayed run in brief, `replayed: 3 attempts, live: 1 attempt` (its step attempts and model requests); '' for a run that is no replay. */
export function replayedRunText(record: RunRecord): string {
  if (!record.options.replayOf) return '';
  const steps = Object.values(record.steps);
  const replayed = steps.reduce((sum, step) => sum + (step.replayed ?? 0), 0);
  // Command steps run for real in a replay too: only the attempts a recording could have served count as live.
  const live = steps.reduce((sum, step) => sum + step.attempts.filter((a) => !a.replayed && a.adapterType !== 'process').length, 0);
  return `replayed: ${attemptsText(replayed)}${live ? `, live: ${attemptsText(live)}` : ''}`;
}
