import { WaveError } from '../core/errors/errors.js';
import { shownUrl, type OtlpDestination } from './otlp-destination.js';
import { requestChunks } from './otlp-json.js';
import { OtlpSender } from './otlp-sender.js';
import type { TraceSpan } from './trace-span.js';

/** Sends spans to a collector in requests of at most SPANS_PER_REQUEST spans (otlp-json.ts); trace_export_failed when any is not taken within `timeoutMs`. */
export async function sendTrace(spans: readonly TraceSpan[], destination: OtlpDestination, timeoutMs: number): Promise<void> {
  const failures: string[] = [];
  const sender = new OtlpSender(destination, timeoutMs, (message) => failures.push(message));
  for (const chunk of requestChunks(spans)) sender.send(chunk);
  await sender.drain();
  if (failures.length > 0) {
    throw new WaveError('trace_export_failed', failures[0]!, {
      hint: `Check that an OTLP/HTTP collector listens at ${shownUrl(destination.url)} (its traces path, e.g. /v1/traces) and takes JSON, and the headers OTEL_EXPORTER_OTLP_HEADERS gives.`,
    });
  }
}
