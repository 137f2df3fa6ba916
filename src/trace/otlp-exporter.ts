import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { OtlpDestination } from './otlp-destination.js';

/** OpenTelemetry's OTLP/HTTP exporter for a destination; its own module, so only a run that sends spans loads it. */
export function otlpExporter(destination: OtlpDestination, timeoutMs: number): OTLPTraceExporter {
  return new OTLPTraceExporter({ url: destination.url, headers: destination.headers, timeoutMillis: timeoutMs });
}
