import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordingTransport } from '../../src/adapters/llm/recording-transport.js';
import { Redactor } from '../../src/redact.js';

const KEY = 'transport-secret-0123456789';

function lines(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const request = { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify({ model: 'm', note: `uses ${KEY}` }) };

describe('the recording transport', () => {
  it('passes the body on unchanged while it records each chunk, redacted, and the end', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wave-http-')), 'http.ndjson');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: one\n\n'));
        controller.enqueue(new TextEncoder().encode(`data: ${KEY}\n\n`));
        controller.close();
      },
    });
    const inner = async () => new Response(body, { status: 429, headers: { 'content-type': 'text/event-stream', 'retry-after': '3', 'x-other': 'no' } });
    const transport = recordingTransport(inner, file, new Redactor([KEY]));
    const response = await transport('http://server/v1/chat/completions', request);
    expect(response.status).toBe(429);
    expect(await response.text()).toBe(`data: one\n\ndata: ${KEY}\n\n`);
    const recorded = lines(file);
    expect(recorded.map((l) => l.kind)).toEqual(['request', 'response', 'chunk', 'chunk', 'end']);
    expect(recorded[0]).toMatchObject({ url: 'http://server/v1/chat/completions', body: { model: 'm', note: 'uses [REDACTED]' } });
    expect(recorded[1]).toMatchObject({ status: 429, headers: { 'content-type': 'text/event-stream', 'retry-after': '3' } });
    expect(recorded.slice(2, 4).map((l) => l.data)).toEqual(['data: one\n\n', 'data: [REDACTED]\n\n']);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
  });

  it('records a request that never reached the server as an error, and throws as the transport did', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wave-http-')), 'http.ndjson');
    const transport = recordingTransport(() => Promise.reject(new Error('connect ECONNREFUSED')), file, new Redactor([]));
    await expect(transport('http://server/v1/chat/completions', request)).rejects.toThrow('ECONNREFUSED');
    expect(lines(file).map((l) => [l.kind, l.message])).toEqual([
      ['request', undefined],
      ['error', 'connect ECONNREFUSED'],
    ]);
  });
});
