import { WaveError, WaveErrors } from './errors.js';
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
  // A file that does not load (a child pipeline's) fails as its first problem does, each problem in the message.
  if (error instanceof WaveErrors && error.errors.length > 0)
    return { ...failureOfError(error.errors[0], otherwise), message: error.errors.map((e) => `${e.code}: ${e.message}`).join('\n') };
  return { class: otherwise, message: error instanceof Error ? error.message : String(error) };
}

/** The start error code of an attempt whose sandbox backend is gone (a Docker daemon that died or stopped answering). */
export const SANDBOX_DOWN_CODE = 'ESANDBOXDOWN';

/** What to do about an attempt whose sandbox backend was gone. */
export const SANDBOX_DOWN_HINT = 'Start the Docker daemon again (dockerd), or point DOCKER_HOST at one that answers, then `wave resume <run-id>` finishes the run.';
