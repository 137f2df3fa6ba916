import { STOP_SIGNALS, type StopSignal } from '../core/errors/exit-codes.js';

/** The stop signals the action caught since it began listening. */
export interface StopWatch {
  /** Aborted by the first stop signal. */
  readonly signal: AbortSignal;
  /** The first stop signal that arrived, if any. */
  readonly stoppedBy: StopSignal | undefined;
  /** Stops listening. */
  release(): void;
}

/** Listens for the runner's cancel (SIGINT, then SIGTERM) from the action's first moment, so Node's default exit never takes it. */
export function catchStopSignals(): StopWatch {
  const controller = new AbortController();
  let stoppedBy: StopSignal | undefined;
  const onSignal = (signal: StopSignal) => {
    stoppedBy ??= signal;
    controller.abort(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return {
    signal: controller.signal,
    get stoppedBy() {
      return stoppedBy;
    },
    release() {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    },
  };
}
