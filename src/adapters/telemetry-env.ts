import { baseUrlOf, formatOtlpPairs } from '../trace/otlp-destination.js';
import type { AttemptTelemetry } from './types.js';

/** The collector's base URL, for a CLI that appends `/v1/traces` (and `/v1/logs`, `/v1/metrics`) itself. */
export function collectorBaseUrl(telemetry: AttemptTelemetry): string {
  return baseUrlOf(telemetry.tracesUrl);
}

/**
 * The OpenTelemetry SDK variables every traced attempt's process gets: its parent span (TRACEPARENT), spans sent over
 * OTLP/HTTP JSON to the run's collector, no metrics or logs (the collector was asked for traces), and resource
 * attributes naming the attempt.
 */
export function otelEnv(telemetry: AttemptTelemetry): Record<string, string> {
  const headers = formatOtlpPairs(telemetry.headers);
  return {
    TRACEPARENT: telemetry.traceparent,
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: telemetry.tracesUrl,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    ...(headers ? { OTEL_EXPORTER_OTLP_TRACES_HEADERS: headers, OTEL_EXPORTER_OTLP_HEADERS: headers } : {}),
    // For a CLI that reads only the base endpoint.
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorBaseUrl(telemetry),
    OTEL_RESOURCE_ATTRIBUTES: formatOtlpPairs(telemetry.resource),
  };
}
