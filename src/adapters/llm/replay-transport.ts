import { readFile } from 'node:fs/promises';
import { sleep } from '../../core/sleep.js';
import type { HttpTransport } from './chat-completion.js';

/** One line of a recorded http.ndjson: the request, the response's status and headers, a chunk read, the end or an error. */
type HttpRecord =
  | { t: number; kind: 'request'; url: string; body: unknown }
  | { t: number; kind: 'response'; status: number; headers?: Record<string, string> }
  | { t: number; kind: 'chunk'; data: string }
  | { t: number; kind: 'end' }
  | { t: number; kind: 'error'; message: string };

/** Reads an attempt's http.ndjson; lines that are not JSON are left out. */
export async function readHttpRecording(path: string): Promise<HttpRecord[]> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as HttpRecord];
    } catch {
      return [];
    }
  });
}

/**
 * A transport that answers the llm adapter's request from a recorded exchange: the recorded status and headers, then
 * each recorded chunk at its recorded time scaled by `speed` (Infinity: as fast as possible), so the adapter's own SSE
 * parser reads the stream as it came. A recorded error ends the stream (or the request, before a response) with its message.
 */
export function replayTransport(records: readonly HttpRecord[], speed: number): HttpTransport {
  return async (_url, init) => {
    const started = Date.now();
    const signal = init.signal ?? undefined;
    const waitUntil = async (at: number) => {
      if (Number.isFinite(speed)) await sleep(Math.max(0, started + at / speed - Date.now()), signal ? { signal } : {});
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted.', 'AbortError');
    };
    const responseAt = records.findIndex((r) => r.kind === 'response' || r.kind === 'error');
    const head = records[responseAt];
    if (!head) throw new Error('the recorded exchange has no response');
    await waitUntil(head.t);
    if (head.kind === 'error') throw new Error(head.message);
    if (head.kind !== 'response') throw new Error('the recorded exchange has no response');
    const rest = records.slice(responseAt + 1);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        try {
          for (const record of rest) {
            await waitUntil(record.t);
            if (record.kind === 'chunk') controller.enqueue(encoder.encode(record.data));
            if (record.kind === 'error') throw new Error(record.message);
            if (record.kind === 'end') break;
          }
          controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
    });
    return new Response(body, { status: head.status, headers: head.headers ?? {} });
  };
}
