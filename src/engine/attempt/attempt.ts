import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../../adapters/types.js';
import type { Failure } from '../../core/errors/failure.js';
import { SYSTEM_CLOCK, type Clock } from '../../core/clock.js';
import { NO_TOKENS } from '../../core/models/tokens.js';

export interface AttemptLimits {
  timeoutMs: number;
  /** 0 disables the stall watchdog. */
  stallMs: number;
}

/** One attempt to run: the runner and its config, under its limits, stopped by `signal`, its stream events to `onEvent`. */
export interface AttemptRun {
  runner: AdapterRunner;
  config: AdapterRunConfig;
  limits: AttemptLimits;
  signal: AbortSignal;
  onEvent: (event: StreamEvent) => void;
  /** The time its limits are measured in (the system's when absent). */
  clock?: Clock;
}

/** Runs one attempt under a timeout and a stall watchdog; `signal` aborting cancels it. */
export async function runAttempt({ runner, config, limits, signal: parent, onEvent, clock = SYSTEM_CLOCK }: AttemptRun): Promise<AdapterResult> {
  const controller = new AbortController();
  const abort = (failure: Failure) => controller.abort(failure);
  const onParentAbort = () => abort(reasonOf(parent));
  parent.addEventListener('abort', onParentAbort, { once: true });
  if (parent.aborted) onParentAbort();
  const minutes = limits.timeoutMs / 60_000;
  const timeout = clock.timer(limits.timeoutMs, () => abort({ class: 'timeout', message: `step ran past its time limit of ${formatMinutes(minutes)}` }));
  const stall =
    limits.stallMs > 0 ? clock.timer(limits.stallMs, () => abort({ class: 'stalled', message: `no output or event for ${Math.round(limits.stallMs / 1000)}s` })) : undefined;
  let waitEnds = 0;
  const started = clock.now();
  try {
    return await runner.run(config, controller.signal, (event) => {
      if (stall) {
        // A CLI waiting out its own retry backoff is quiet on purpose: the window starts when the announced wait ends.
        if (event.kind === 'retry' && event.delayMs) waitEnds = Math.max(waitEnds, clock.now() + event.delayMs);
        stall.restart(limits.stallMs + Math.max(0, waitEnds - clock.now()));
      }
      onEvent(event);
    });
  } catch (error) {
    // A runner should never throw; if one does, the attempt fails rather than the run.
    return crashedResult(error, clock.now() - started);
  } finally {
    timeout.cancel();
    stall?.cancel();
    parent.removeEventListener('abort', onParentAbort);
  }
}

/** The Failure a parent signal was aborted with. */
export function reasonOf(signal: AbortSignal): Failure {
  const reason = signal.reason as Partial<Failure> | undefined;
  if (reason && typeof reason === 'object' && typeof reason.class === 'string') return reason as Failure;
  return { class: 'aborted', message: 'cancelled' };
}

function formatMinutes(minutes: number): string {
  return minutes >= 1 ? `${Number(minutes.toFixed(2))} min` : `${Math.round(minutes * 60)}s`;
}

function crashedResult(error: unknown, durationMs: number): AdapterResult {
  return {
    ok: false,
    exitCode: null,
    signal: null,
    text: '',
    tokens: { ...NO_TOKENS },
    failure: { class: 'non_zero_exit', message: `adapter failed: ${error instanceof Error ? error.message : String(error)}` },
    skippedLines: 0,
    outputTail: '',
    durationMs,
  };
}
