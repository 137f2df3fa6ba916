/** Where spans are sent live: an OTLP/HTTP traces URL and the headers it wants (an API key, a tenant). */
export interface OtlpDestination {
  url: string;
  headers: Record<string, string>;
}

/** The manifest's `runtime.telemetry.otlp`. */
export interface OtlpSetting {
  endpoint: string;
  headers?: Record<string, string>;
}

const TRACES_PATH = 'v1/traces';

/** A base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT's kind) with the traces path added, as the OTLP exporter specification asks. */
function tracesUrlOf(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return trimmed.endsWith(`/${TRACES_PATH}`) ? trimmed : `${trimmed}/${TRACES_PATH}`;
}

/** A traces URL's base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT's kind), for a client that adds `/v1/traces` itself. */
export function baseUrlOf(tracesUrl: string): string {
  return tracesUrl.endsWith(`/${TRACES_PATH}`) || tracesUrl.endsWith(`/${TRACES_PATH}/`) ? tracesUrl.slice(0, tracesUrl.lastIndexOf(`/${TRACES_PATH}`)) : tracesUrl;
}

/** Pairs in OTEL_EXPORTER_OTLP_HEADERS' (and OTEL_RESOURCE_ATTRIBUTES') form, which parseOtlpHeaders reads back. */
export function formatOtlpPairs(pairs: Record<string, string>): string {
  return Object.entries(pairs)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join(',');
}

/** OTEL_EXPORTER_OTLP_HEADERS' form: `key=value` pairs, comma-separated, percent-encoded. */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // A pair that is not percent-encoded properly is left out, as the OpenTelemetry SDKs do.
    }
  }
  return headers;
}

/**
 * Where the run's spans go live, if anywhere: the OpenTelemetry variables (the traces-only ones first) win over the
 * manifest's `runtime.telemetry.otlp`; none of them set means otel.jsonl only.
 */
export function otlpDestinationOf(env: NodeJS.ProcessEnv, setting: OtlpSetting | undefined): OtlpDestination | undefined {
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = tracesEndpoint || (endpoint ? tracesUrlOf(endpoint) : setting ? tracesUrlOf(setting.endpoint) : undefined);
  if (!url) return undefined;
  const headers = { ...setting?.headers, ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) };
  return { url, headers };
}

/** The URL as a message may show it: no user, password, query or fragment (any of which may hold a key). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(an endpoint that is not a URL)';
  }
}
