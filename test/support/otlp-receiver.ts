import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One export request a collector received: where it was posted, its headers and its body (parsed when JSON, else undefined). */
export interface ReceivedExport {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  raw: Buffer;
}

/** A loopback OTLP/HTTP collector that answers 200 to every POST and keeps what it got. */
export interface OtlpReceiver {
  /** Its base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  received: ReceivedExport[];
  close(): Promise<void>;
}

/** An agent CLI may send protobuf: its body is kept raw, and only JSON is parsed. */
function parsedJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The service an export request's spans come from: `wave`, or an agent CLI's own (`claude-code`, …). */
export function serviceOf(request: ReceivedExport): unknown {
  return attributesOf(request.body?.resourceSpans?.[0]?.resource ?? { attributes: [] })['service.name'];
}

/** The received requests of one service, as bodies. */
export function requestsOf(received: readonly ReceivedExport[], service: string): any[] {
  return received.filter((request) => serviceOf(request) === service).map((request) => request.body);
}

/** Starts the receiver on a free port of 127.0.0.1. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ path: request.url ?? '', headers: request.headers, body: parsedJson(raw), raw });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every span of the received requests (or of otel.jsonl's lines), in order. */
export function spansOf(requests: readonly any[]): any[] {
  return requests.flatMap((request) => request.resourceSpans.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans)));
}

/** A span's attributes as a plain object. */
export function attributesOf(span: any): Record<string, unknown> {
  return Object.fromEntries(span.attributes.map((entry: any) => [entry.key, Object.values(entry.value)[0]]));
}
