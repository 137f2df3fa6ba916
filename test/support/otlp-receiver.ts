import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One export request a collector received: where it was posted, its headers and its JSON body. */
export interface ReceivedExport {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A loopback OTLP/HTTP collector that answers 200 to every POST and keeps what it got. */
export interface OtlpReceiver {
  /** Its base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  received: ReceivedExport[];
  close(): Promise<void>;
}

/** Starts the receiver on a free port of 127.0.0.1. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
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
