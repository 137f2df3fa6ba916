import { WaveError } from '../errors.js';
import { isFailureClass, type FailureClass } from './error-codes.js';

/** Why an attempt (or a step) failed, as run.json and the events record it. */
export interface Failure {
  class: FailureClass;
  message: string;
  hint?: string;
  /** For rate_limited: how long the provider asked us to wait. */
  retryAfterMs?: number;
}

/**
 * An error thrown while a step was prepared or judged, as its Failure: a WaveError keeps its code as the class (a code
 * no step raises is Wave's own bug: `internal`); anything else is `otherwise`, what the caller was doing when it came.
 */
export function failureOfError(error: unknown, otherwise: FailureClass): Failure {
  if (error instanceof WaveError) {
    const failureClass = isFailureClass(error.code) ? error.code : 'internal';
    return { class: failureClass, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  }
  return { class: otherwise, message: error instanceof Error ? error.message : String(error) };
}
