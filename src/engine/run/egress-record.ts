import type { EgressRecord } from '../../sandbox/types.js';
import { emit, type RunContext } from './context.js';

/** Records one egress decision: an `egress` event, and a denial counted on its step in run.json. */
export function recordEgress(context: RunContext, record: EgressRecord): void {
  const { scope, host, port, allowed, via, reason } = record;
  emit(context, { type: 'egress', stepId: scope.stepId, attempt: scope.attempt, host, port, allowed, via, ...(reason ? { reason } : {}) });
}
