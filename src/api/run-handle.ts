import type { RunOutcome } from '../app/run-outcome.js';
import type { RunHost } from '../app/run-request.js';
import type { TextWriter } from '../app/text-writer.js';
import type { RunEvent, RunStatus } from '../events.js';
import type { RunRecord } from '../state/record/run-record.js';
import { EventStream } from './event-stream.js';
import { apiError } from './wave-problems.js';

/** How a run started or resumed through the API ended. */
export interface RunResult {
  /** The run's status as recorded: completed, failed, cancelled or rejected. */
  status: RunStatus;
  /** The exit code `wave run` would have ended with: 0, 1 (failed), 3 (rejected), 130 (cancelled). */
  exitCode: number;
  runId: string;
  /** run.json as the run left it. */
  record: RunRecord;
  /** The run folder (.wave/runs/<run id>). */
  dir: string;
}

/** A run in progress: iterate it for its events (the same `wave run --json` prints, child runs' too), await `result`, or cancel it. */
export interface RunHandle extends AsyncIterable<RunEvent> {
  /** Settles when the run has ended; rejects with a WaveError when it could not start (a bad pipeline, a run that cannot resume). */
  readonly result: Promise<RunResult>;
  /** Stops the running steps; the run ends cancelled (exit code 130). */
  cancel(reason?: string): void;
}

/** What every run through the API may take besides what it runs. */
export interface RunControl {
  /** Called with each event as it happens (the run's and its child runs', each with its runId); it must not throw. */
  onEvent?: (event: RunEvent) => void;
  /** Aborting it cancels the run, as `cancel()` does. */
  signal?: AbortSignal;
  /** Where the run's notes and warnings go (configuration warnings, preflight notes); dropped when absent. */
  stderr?: TextWriter;
}

/** Drops what is written: the API prints nothing unless asked. */
const SILENT: TextWriter = { write: () => true };

/** Starts `drive` (the app layer's run sequence) with a host that collects its events, and hands back the run's handle. */
export function runHandle(control: RunControl, drive: (host: RunHost, err: TextWriter) => Promise<RunOutcome>): RunHandle {
  const stream = new EventStream();
  const controller = new AbortController();
  const cancel = (reason = 'cancelled') => {
    if (!controller.signal.aborted) controller.abort({ class: 'aborted', message: reason });
  };
  const followSignal = () => cancel('cancelled by the caller');
  control.signal?.addEventListener('abort', followSignal, { once: true });
  if (control.signal?.aborted) followSignal();
  const show = (event: RunEvent) => {
    stream.push(event);
    control.onEvent?.(event);
  };
  const result = (async (): Promise<RunResult> => {
    try {
      const outcome = await drive({ show, signal: controller.signal }, control.stderr ?? SILENT);
      stream.end();
      const { record } = outcome;
      return { status: record.status, exitCode: outcome.exitCode, runId: record.id, record, dir: outcome.dir };
    } catch (error) {
      const thrown = apiError(error);
      stream.end({ error: thrown });
      throw thrown;
    } finally {
      control.signal?.removeEventListener('abort', followSignal);
    }
  })();
  // A caller that only iterates sees the error there: the result's rejection is not left unhandled.
  result.catch(() => undefined);
  return { result, cancel, [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator]() };
}
