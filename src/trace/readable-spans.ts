import type { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { TRACE_SERVICE } from './otlp-json.js';
import type { TraceSpan } from './trace-span.js';

/** A span as the OTLP/HTTP exporter takes it (the SDK's ReadableSpan). */
export type ExportableSpan = Parameters<OTLPTraceExporter['export']>[0][number];
type HrTime = ExportableSpan['startTime'];

// The API's enums, by value: SpanKind INTERNAL 0 and CLIENT 2, SpanStatusCode UNSET 0 and ERROR 2, TraceFlags SAMPLED 1.
const KIND = { internal: 0, client: 2 } as const;
const STATUS = { unset: 0, error: 2 } as const;
const SAMPLED = 1;

/** The service every span is reported under; one object, so the exporter groups all spans under one resource. */
const RESOURCE = { attributes: { 'service.name': TRACE_SERVICE.name, 'service.version': TRACE_SERVICE.version } } as unknown as ExportableSpan['resource'];
const SCOPE = { name: TRACE_SERVICE.name, version: TRACE_SERVICE.version };

function hrTime(ms: number): HrTime {
  const whole = Math.trunc(ms);
  return [Math.floor(whole / 1000), (whole % 1000) * 1_000_000];
}

/** The span as the exporter's ReadableSpan: the same ids, times and attributes otel.jsonl holds. */
export function exportableSpan(span: TraceSpan): ExportableSpan {
  const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: SAMPLED };
  return {
    name: span.name,
    kind: KIND[span.kind],
    spanContext: () => context,
    ...(span.parentSpanId !== undefined ? { parentSpanContext: { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: SAMPLED } } : {}),
    startTime: hrTime(span.startMs),
    endTime: hrTime(span.endMs),
    duration: hrTime(span.endMs - span.startMs),
    status: { code: STATUS[span.status.code], ...(span.status.message !== undefined ? { message: span.status.message } : {}) },
    attributes: span.attributes,
    links: span.links.map((link) => ({ context: { traceId: link.traceId, spanId: link.spanId, traceFlags: SAMPLED }, attributes: link.attributes })),
    events: span.events.map((event) => ({ name: event.name, time: hrTime(event.timeMs), attributes: event.attributes })),
    ended: true,
    resource: RESOURCE,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
