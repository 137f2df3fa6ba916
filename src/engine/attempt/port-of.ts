import type { RunContext } from '../run/context.js';
import { livePort, type AttemptPort } from './attempt-port.js';

/** The run's attempt port: the one it was given, else the live one, storing what it keeps redacted as the run's events are. */
export function attemptPortOf(context: RunContext): AttemptPort {
  return context.attempts ?? livePort((value) => context.store.redactStored(value), context.clock);
}
