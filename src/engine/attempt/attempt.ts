import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../../adapters/types.js';
import type { Failure } from '../../core/failure.js';
import { NO_TOKENS } from '../../core/tokens.js';

export interface AttemptLimits {
  timeoutMs: number;
  /** 0 disables the stall watchdog. */
  stallMs: number;
}

/** Runs one attempt under a timeout and a stall watchdog; `parent` aborting cancels it. */
export async function runAttempt(
  runner: AdapterRunner,
  config: AdapterRunConfig,
  limits: AttemptLimits,
  parent: AbortSignal,
  onEvent: (event: StreamEvent) => void,
): Promise<AdapterResult> {
  const controller = new AbortController();
  const abort = (failure: Failure) => controller.abort(failure);
  const onParentAbort = () => abort(reasonOf(parent));
  parent.addEventListener('abort', onParentAbort, { once: true });
  if (parent.aborted) onParentAbort();
  const minutes = limits.timeoutMs / 60_000;
  const timeout = setTimeout(() => abort({ class: 'timeout', message: `step ran past its time limit of ${formatMinutes(minutes)}` }), limits.timeoutMs);
  const stalled = () => abort({ class: 'stalled', message: `no output or event for ${Math.round(limits.stallMs / 1000)}s` });
  let stall = limits.stallMs > 0 ? setTimeout(stalled, limits.stallMs) : undefined;
  let waitEnds = 0;
  let extended = false;
  const started = Date.now();
  try {
    return await runner.run(config, controller.signal, (event) => {
      if (stall) {
        // A CLI waiting out its own retry backoff is quiet on purpose: the window starts when the announced wait ends.
        if (event.kind === 'retry' && event.delayMs) waitEnds = Math.max(waitEnds, Date.now() + event.delayMs);
        const waitLeft = Math.max(0, waitEnds - Date.now());
        if (waitLeft > 0 || extended) {
          clearTimeout(stall);
          stall = setTimeout(stalled, limits.stallMs + waitLeft);
          extended = waitLeft > 0;
        } else stall.refresh();
      }
      onEvent(event);
    });
  } catch (error) {
    // A runner should never throw; if one does, the attempt fails rather than the run.
    return crashedResult(error, Date.now() - started);
  } finally {
    clearTimeout(timeout);
    if (stall) clearTimeout(stall);
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
