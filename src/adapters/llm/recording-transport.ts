import { appendFileSync } from 'node:fs';
import type { Redactor } from '../../redact.js';
import type { HttpTransport } from './chat-completion.js';

/** The file in an llm attempt's folder that holds its HTTP exchange, one JSON line per request, response, chunk and end. */
export const HTTP_RECORD_FILE = 'http.ndjson';

/** The response headers a replay needs: how the body is framed and how long a rate limit asks to wait. */
const KEPT_HEADERS = ['content-type', 'retry-after'] as const;

/**
 * Wraps `inner` so that each exchange is appended to `file` as it happens: the request's URL and JSON body (redacted;
 * the Authorization header never), the response's status and headers, each chunk of its body as UTF-8 text (redacted)
 * with its time in ms since the transport was made, and how the body ended.
 */
export function recordingTransport(inner: HttpTransport, file: string, redactor: Redactor, now: () => number = Date.now): HttpTransport {
  const started = now();
  const line = (record: Record<string, unknown>) => {
    // The record reports on the exchange and never fails it: a folder that cannot take a line loses only the line.
    try {
      appendFileSync(file, `${JSON.stringify({ t: now() - started, ...record })}\n`);
    } catch {
      /* nothing to do */
    }
  };
  return async (url, init) => {
    line({ kind: 'request', url: redactor.redact(url), body: storedBody(init.body, redactor) });
    let response: Response;
    try {
      response = await inner(url, init);
    } catch (error) {
      line({ kind: 'error', message: redactor.redact(error instanceof Error ? error.message : String(error)) });
      throw error;
    }
    const headers = Object.fromEntries(KEPT_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)]] : [])));
    line({ kind: 'response', status: response.status, headers });
    const body = response.body ? teeBody(response.body, (data) => line({ kind: 'chunk', data: redactor.redact(data) }), line) : null;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The request body as stored: the JSON sent, with the run's secrets redacted (as text when redaction left no JSON). */
function storedBody(body: RequestInit['body'], redactor: Redactor): unknown {
  if (typeof body !== 'string') return null;
  const text = redactor.redact(body);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The body passed on chunk by chunk, each one told to `onChunk` as it is read, then its end or error to `line`. */
function teeBody(body: ReadableStream<Uint8Array>, onChunk: (data: string) => void, line: (record: Record<string, unknown>) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          const rest = decoder.decode();
          if (rest) onChunk(rest);
          line({ kind: 'end' });
          controller.close();
          return;
        }
        onChunk(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
      } catch (error) {
        line({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
        controller.error(error);
      }
    },
    async cancel(reason) {
      line({ kind: 'error', message: `the body was cancelled: ${String(reason)}` });
      await reader.cancel(reason);
    },
  });
}
