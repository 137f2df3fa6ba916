import { isAttemptStep, type AttemptStep, type GateStep } from '../plan/plan-types.js';

/** Minutes a job spends besides its step: checkout, Node, `npm ci`, artifact transfers. */
export const JOB_SETUP_MINUTES = 10;

/**
 * A step job's `timeout-minutes` and the setup margin: for an attempt step, every attempt it may make (retries and
 * contract retries) at its time limit and the waits between them; for a timer gate, its wait. An approval gate's job
 * runs only once approved (the wait for a reviewer is no part of the job), and then resolves at once.
 */
export function jobTimeoutMinutes(step: AttemptStep | GateStep): number {
  if (!isAttemptStep(step)) return Math.ceil((step.gateType === 'timer' ? (step.timeoutMs ?? 0) : 0) / 60_000) + JOB_SETUP_MINUTES;
  const contractRetries = step.contracts.reduce((sum, c) => sum + (c.on_failure === 'retry' ? (c.max_retries ?? 2) : 0), 0);
  const attempts = step.retry.maxAttempts + contractRetries;
  const minutes = (attempts * step.timeoutMs + (step.retry.maxAttempts - 1) * step.retry.maxDelayMs) / 60_000;
  return Math.ceil(minutes) + JOB_SETUP_MINUTES;
}
