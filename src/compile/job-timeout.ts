import type { AttemptStep } from '../plan/plan-types.js';

/** Minutes a job spends besides its step: checkout, Node, `npm ci`, artifact transfers. */
export const JOB_SETUP_MINUTES = 10;

/** A step job's `timeout-minutes`: every attempt the step may make (retries and contract retries) at its time limit, the waits between them, and the setup margin. */
export function jobTimeoutMinutes(step: AttemptStep): number {
  const contractRetries = step.contracts.reduce((sum, c) => sum + (c.on_failure === 'retry' ? (c.max_retries ?? 2) : 0), 0);
  const attempts = step.retry.maxAttempts + contractRetries;
  const minutes = (attempts * step.timeoutMs + (step.retry.maxAttempts - 1) * step.retry.maxDelayMs) / 60_000;
  return Math.ceil(minutes) + JOB_SETUP_MINUTES;
}
