import { PACKAGE_VERSION } from '../package-root.js';
import type { AttributeValue, Attributes, TraceSpan } from './trace-span.js';

/** The service and instrumentation scope every span of Wave's is reported under. */
export const TRACE_SERVICE = { name: 'wave', version: PACKAGE_VERSION } as const;

/** W3C's sampled flag with OTLP's "has is-remote" bit (0x100): the flags the OTLP/HTTP exporter writes for a local parent. */
export const OTLP_SPAN_FLAGS = 0x101;

// OTLP numbers span kinds from 1 (internal) and status codes from 0 (unset); protobuf's JSON mapping of them.
const KIND = { internal: 1, client: 3 } as const;
const STATUS = { unset: 0, error: 2 } as const;

/** An OTLP AnyValue as the JSON mapping writes it. */
type OtlpValue = { stringValue: string } | { intValue: number } | { doubleValue: number } | { boolValue: boolean } | { arrayValue: { values: OtlpValue[] } };

function otlpValue(value: AttributeValue): OtlpValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: value } : { doubleValue: value };
  return { arrayValue: { values: value.map((entry) => otlpValue(entry)) } };
}

function otlpAttributes(attributes: Attributes) {
  return Object.entries(attributes).map(([key, value]) => ({ key, value: otlpValue(value) }));
}

/** Epoch milliseconds as OTLP JSON's decimal string of nanoseconds. */
function unixNano(ms: number): string {
  return (BigInt(Math.trunc(ms)) * 1_000_000n).toString();
}

function otlpSpan(span: TraceSpan) {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.parentSpanId !== undefined ? { parentSpanId: span.parentSpanId } : {}),
    name: span.name,
    kind: KIND[span.kind],
    startTimeUnixNano: unixNano(span.startMs),
    endTimeUnixNano: unixNano(span.endMs),
    attributes: otlpAttributes(span.attributes),
    droppedAttributesCount: 0,
    events: span.events.map((event) => ({ attributes: otlpAttributes(event.attributes), name: event.name, timeUnixNano: unixNano(event.timeMs), droppedAttributesCount: 0 })),
    droppedEventsCount: 0,
    status: { code: STATUS[span.status.code], ...(span.status.message !== undefined ? { message: span.status.message } : {}) },
    links: span.links.map((link) => ({
      attributes: otlpAttributes(link.attributes),
      spanId: link.spanId,
      traceId: link.traceId,
      droppedAttributesCount: 0,
      flags: OTLP_SPAN_FLAGS,
    })),
    droppedLinksCount: 0,
    flags: OTLP_SPAN_FLAGS,
  };
}

/** An OTLP ExportTraceServiceRequest of the spans, as OTLP/HTTP's JSON encoding (and otel.jsonl, one a line) has it. */
export function otlpTraceRequest(spans: readonly TraceSpan[]) {
  return {
    resourceSpans: [
      {
        resource: { attributes: otlpAttributes({ 'service.name': TRACE_SERVICE.name, 'service.version': TRACE_SERVICE.version }), droppedAttributesCount: 0 },
        scopeSpans: [{ scope: { name: TRACE_SERVICE.name, version: TRACE_SERVICE.version }, spans: spans.map((span) => otlpSpan(span)) }],
      },
    ],
  };
}

/** The type of one export request, as the writer makes it and a reader of otel.jsonl gets it back. */
export type OtlpTraceRequest = ReturnType<typeof otlpTraceRequest>;

/** Most spans one export request carries: the live trace's batches, `wave trace`'s requests. */
export const SPANS_PER_REQUEST = 512;

/** The spans in the requests they are sent and written as: at most SPANS_PER_REQUEST each, in order. */
export function requestChunks<T>(spans: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < spans.length; start += SPANS_PER_REQUEST) chunks.push(spans.slice(start, start + SPANS_PER_REQUEST));
  return chunks;
}

/** One line of otel.jsonl: an export request of the spans, and a newline. */
export function otlpTraceLine(spans: readonly TraceSpan[]): string {
  return `${JSON.stringify(otlpTraceRequest(spans))}\n`;
}

/** The text of otel.jsonl for the spans: their export requests, a line each. */
export function otlpTraceLines(spans: readonly TraceSpan[]): string {
  return requestChunks(spans).map(otlpTraceLine).join('');
}
