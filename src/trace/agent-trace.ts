import type { AttemptTelemetry } from '../adapters/types.js';
import { isAgentCliType, type ResolvedAdapter } from '../core/resolved-adapter.js';
import type { OtlpDestination } from './otlp-destination.js';
import { attemptSpanId } from './trace-ids.js';

/** A run's trace as its agents join it: only when spans go to a collector (an agent's own spans have nowhere else to go). */
export interface AgentTraceTarget {
  /** The trace the run's spans are in: its parent's, or its own. */
  traceId: string;
  destination: OtlpDestination;
}

/** The trace an attempt of `adapter` joins: the run's, for an agent CLI or a plugin's (a CLI that can report its own spans). */
export function agentTraceOf(target: AgentTraceTarget | undefined, adapter: Pick<ResolvedAdapter, 'type'>): AgentTraceTarget | undefined {
  return target && (isAgentCliType(adapter.type) || adapter.type === 'plugin') ? target : undefined;
}

/** What one attempt's process is handed: its attempt span as TRACEPARENT (the id the fold gives that span), and the collector. */
export function attemptTelemetry(target: AgentTraceTarget, attempt: { runId: string; stepId: string; attempt: number }): AttemptTelemetry {
  return {
    traceparent: `00-${target.traceId}-${attemptSpanId(attempt.runId, attempt.stepId, attempt.attempt)}-01`,
    tracesUrl: target.destination.url,
    headers: target.destination.headers,
    resource: { 'wave.run_id': attempt.runId, 'wave.step': attempt.stepId, 'wave.attempt': String(attempt.attempt) },
  };
}
