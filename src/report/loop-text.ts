import type { RunEvent } from '../events.js';
import type { StepRecord } from '../state/record/run-record.js';

/** `iteration 2/5` (and whether an earlier run completed it): what the text output, the live view and `wave status` say of a loop. */
export function loopIterationText(event: Pick<Extract<RunEvent, { type: 'loop_iteration' }>, 'iteration' | 'of' | 'reused'>): string {
  return `iteration ${event.iteration}/${event.of}${event.reused ? ' (completed in an earlier run, not run again)' : ''}`;
}

/** Why a loop stopped: its `until` met, or max_iterations reached (it completes either way, as in Wave). */
export function loopEndText(event: Pick<Extract<RunEvent, { type: 'loop_ended' }>, 'iterations' | 'reason'>): string {
  const after = `after ${event.iterations} iteration${event.iterations === 1 ? '' : 's'}`;
  return `loop ended ${after}: ${event.reason === 'until' ? 'until was met' : 'max_iterations reached'}`;
}

/** A loop step's record in `wave status`: the iteration it is at, or how it ended. */
export function loopStatusText(loop: NonNullable<StepRecord['loop']>): string {
  return loop.ended ? loopEndText({ iterations: loop.iteration, reason: loop.ended }) : `iteration ${loop.iteration}/${loop.of}`;
}
