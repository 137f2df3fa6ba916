import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RUN_ID_PATTERN } from '../state/run-id.js';

/** `wave replay` / `wave run --replay` as a run request, its recorded options and its children's requests carry them. */
export interface ReplayRequest {
  /** The recorded run's folder (absolute) whose attempts serve this run's. */
  replayOf?: string;
  /** `--replay-mode`: `strict` (default) fails an unmatched attempt, `live` runs it live. */
  replayMode?: 'strict' | 'live';
  /** `--speed`: how much faster than recorded the streams are fed; absent, as fast as possible. */
  replaySpeed?: number;
}

/** Only the replay fields that are set: a run that is no replay carries none. */
export function replayOptionsOf({ replayOf, replayMode, replaySpeed }: ReplayRequest): ReplayRequest {
  if (replayOf === undefined) return {};
  return { replayOf, ...(replayMode === 'live' ? { replayMode } : {}), ...(replaySpeed !== undefined ? { replaySpeed } : {}) };
}

/**
 * A child run's replay: the recorded parent's child run that the same step (and item) started, the `nth` of them
 * (0-based: a loop starts one per iteration). A child the recording lacks replays from a folder that holds nothing,
 * so its attempts are `replay_exhausted` (or, in live mode, run live).
 */
export function childReplayOptions(parent: ReplayRequest, stepId: string, item: number | undefined, nth: number): ReplayRequest {
  if (parent.replayOf === undefined) return {};
  const started = recordedChildRuns(parent.replayOf).filter((c) => c.stepId === stepId && c.item === item);
  const childRunId = started[nth]?.childRunId;
  // A recording may come from a cassette: a child id that is not a folder name never leads the replay out of it.
  const replayOf = childRunId && RUN_ID_PATTERN.test(childRunId) ? join(dirname(parent.replayOf), childRunId) : join(parent.replayOf, 'no-recorded-child-run');
  return replayOptionsOf({ ...parent, replayOf });
}

/** The child_run_started events of a recorded run, in order. */
export function recordedChildRuns(runDir: string): Array<{ stepId: string; item?: number; childRunId: string }> {
  let text: string;
  try {
    text = readFileSync(join(runDir, 'events.ndjson'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.includes('"child_run_started"'))
    .flatMap((line) => {
      try {
        const event = JSON.parse(line) as { type?: string; stepId: string; item?: number; childRunId: string };
        return event.type === 'child_run_started' ? [event] : [];
      } catch {
        return [];
      }
    });
}
