import type { Attributes, TraceSpan, TraceSpanStatus } from './trace-span.js';

/** A span still going: everything but its end. */
export type OpenSpan = Omit<TraceSpan, 'endMs'>;

/** What a new span starts with. */
export interface SpanStart {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: OpenSpan['kind'];
  startMs: number;
  attributes?: Attributes;
}

/** A span opened at `startMs`, with no events, links or status yet. */
export function openSpan(start: SpanStart): OpenSpan {
  return {
    traceId: start.traceId,
    spanId: start.spanId,
    ...(start.parentSpanId !== undefined ? { parentSpanId: start.parentSpanId } : {}),
    name: start.name,
    kind: start.kind ?? 'internal',
    startMs: start.startMs,
    attributes: { ...start.attributes },
    events: [],
    links: [],
    status: { code: 'unset' },
  };
}

/** The span ended at `endMs` (never before it started: clocks of recorded events may step back). */
export function endSpan(span: OpenSpan, endMs: number): TraceSpan {
  return { ...span, endMs: Math.max(endMs, span.startMs) };
}

/** An error status with its failure class as `error.type`, as the OpenTelemetry conventions name it. */
export function failSpan(span: OpenSpan, errorType: string, message?: string): void {
  span.attributes['error.type'] = errorType;
  const status: TraceSpanStatus = { code: 'error' };
  if (message) status.message = message;
  span.status = status;
}

/** An event on the span at `timeMs`. */
export function addSpanEvent(span: OpenSpan, name: string, timeMs: number, attributes: Attributes = {}): void {
  span.events.push({ name, timeMs, attributes });
}
