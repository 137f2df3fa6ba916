import { readFileSync } from 'node:fs';
import type { SpanContextIds } from './trace-ids.js';

/** A span of otel.jsonl as far as this reader looks at it. */
interface RecordedSpan {
  traceId?: string;
  parentSpanId?: string;
  attributes?: Array<{ key?: string; value?: { stringValue?: string; intValue?: number } }>;
}

const attribute = (span: RecordedSpan, key: string) => span.attributes?.find((entry) => entry.key === key)?.value;

/**
 * The parent the run's first drive hung under when it was started with a TRACEPARENT, as its otel.jsonl recorded it;
 * so `wave trace` exports the trace the live run sent. Undefined without one (or without the file).
 */
export function recordedTraceParent(file: string, runId: string): SpanContextIds | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    let request: { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: RecordedSpan[] }> }> };
    try {
      request = JSON.parse(line) as typeof request;
    } catch {
      continue;
    }
    const spans = (request.resourceSpans ?? []).flatMap((resource) => (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []));
    const first = spans.find((span) => attribute(span, 'wave.run_id')?.stringValue === runId && attribute(span, 'wave.run.session')?.intValue === 1);
    if (first) return first.traceId && first.parentSpanId ? { traceId: first.traceId, spanId: first.parentSpanId } : undefined;
  }
  return undefined;
}
