import type { RetryPolicy } from '../../plan/plan-types.js';

/** The wait before attempt `attempt + 1`, after `attempt` (1-based) failed. */
export function backoffDelay(policy: Pick<RetryPolicy, 'backoff' | 'baseDelayMs' | 'maxDelayMs'>, attempt: number): number {
  const factor = policy.backoff === 'fixed' ? 1 : policy.backoff === 'linear' ? attempt : 2 ** (attempt - 1);
  return Math.min(policy.baseDelayMs * factor, policy.maxDelayMs);
}
