import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveTrace, TRACE_FLUSH_TIMEOUT_MS } from '../../src/trace/live-trace.js';
import { ROOT } from '../support/cli.js';
import { otlpDestinationOf, parseOtlpHeaders, shownUrl } from '../../src/trace/otlp-destination.js';
import { closedPort } from '../support/closed-port.js';
import { attributesOf, spansOf, startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { tempDir } from '../state/sample-run.js';
import { CHILD, sampleRun } from './sample-trace-run.js';

const SETTINGS = { captureContent: false, latestSemconvOnly: false };

/** Folds the sample run through a live trace sending to `url`; returns otel.jsonl's requests and the warnings. */
async function exportSample(url: string, flushTimeoutMs?: number) {
  const file = join(tempDir('wave-trace-'), 'otel.jsonl');
  const warnings: string[] = [];
  const trace = new LiveTrace({
    ...SETTINGS,
    file,
    destination: { url, headers: { 'x-tenant': 'wave' } },
    warn: (m) => warnings.push(m),
    ...(flushTimeoutMs ? { flushTimeoutMs } : {}),
  });
  for (const event of sampleRun()) trace.handle(event);
  await trace.close();
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return { written: lines.map((line) => JSON.parse(line)), warnings };
}

describe('LiveTrace', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => (receiver = await startOtlpReceiver()));
  afterAll(() => receiver.close());

  it('sends to the collector exactly the requests it writes to otel.jsonl, with the configured headers', async () => {
    receiver.received.length = 0;
    const { written, warnings } = await exportSample(`${receiver.url}/v1/traces`);
    expect(warnings).toEqual([]);
    expect(receiver.received.map((r) => r.body)).toEqual(written);
    expect(receiver.received.every((r) => r.path === '/v1/traces' && r.headers['x-tenant'] === 'wave' && r.headers['content-type'] === 'application/json')).toBe(true);
    const names = spansOf(written).map((span) => span.name);
    expect(names).toContain('invoke_workflow review');
    expect(names).toContain('execute_tool Bash');
    const agent = spansOf(written).find((span) => span.name === 'invoke_agent navigator');
    expect(attributesOf(agent)).toMatchObject({ 'gen_ai.usage.input_tokens': 1200, 'gen_ai.conversation.id': 'sess-1', 'error.type': 'contract_failed' });
  });

  it('warns once and still writes otel.jsonl when nothing listens at the endpoint', async () => {
    const { written, warnings } = await exportSample(`http://127.0.0.1:${await closedPort()}/v1/traces`);
    expect(spansOf(written).length).toBeGreaterThan(5);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^could not send the run's trace to http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(/);
  });

  it('documents the flush timeout it keeps', () => {
    expect(readFileSync(join(ROOT, 'docs', 'traces.md'), 'utf8')).toContain(`**${TRACE_FLUSH_TIMEOUT_MS / 1000} seconds**`);
  });

  it('gives a collector that never answers no more than the flush timeout', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const started = Date.now();
    const { warnings } = await exportSample(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1/traces`, 300);
    // Far below the exporter's own 10 s default: the run's end waits only the flush timeout.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(warnings).toEqual([expect.stringContaining('no answer within 300 ms')]);
    silent.closeAllConnections();
    silent.close();
  });
});

describe('otlpDestinationOf', () => {
  const manifest = { endpoint: 'https://collector.example:4318/', headers: { 'x-key': 'from-manifest', 'x-other': 'kept' } };

  it("takes the manifest's endpoint with the traces path added, and its headers", () => {
    expect(otlpDestinationOf({}, manifest)).toEqual({ url: 'https://collector.example:4318/v1/traces', headers: { 'x-key': 'from-manifest', 'x-other': 'kept' } });
    expect(otlpDestinationOf({}, undefined)).toBeUndefined();
  });

  it('lets the OpenTelemetry variables win, the traces-only ones first', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_HEADERS: 'x-key=from%20env' };
    expect(otlpDestinationOf(env, manifest)).toEqual({ url: 'http://a:4318/v1/traces', headers: { 'x-key': 'from env', 'x-other': 'kept' } });
    expect(otlpDestinationOf({ ...env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b/traces', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-key=t' }, undefined)).toEqual({
      url: 'http://b/traces',
      headers: { 'x-key': 't' },
    });
  });

  it('reads header lists as the OpenTelemetry SDKs do and shows a URL without its credentials', () => {
    expect(parseOtlpHeaders('a=1, b = two ,bad,=x,c=%E0%A4%A')).toEqual({ a: '1', b: 'two' });
    expect(shownUrl('https://user:pass@collector.example/v1/traces?key=k')).toBe('https://collector.example/v1/traces');
  });
});

describe('a collector that refuses the spans', () => {
  it('is one warning whose reason shows its control characters instead of sending them to the terminal', async () => {
    const body = '\x1b]0;owned\x07\x1b[2J refused';
    const refusing = createNetServer((socket) =>
      socket.once('data', () => socket.end(`HTTP/1.1 400 Bad\x1b[2JRequest\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)),
    );
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const { warnings } = await exportSample(`http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v1/traces`);
    refusing.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('(Bad\\x1b[2JRequest)');
    expect(warnings[0]).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });
});

describe('a trace that cannot be folded', () => {
  it("stops with one warning (a child run's record that cannot be read) and leaves the run alone", async () => {
    const file = join(tempDir('wave-trace-'), 'otel.jsonl');
    const warnings: string[] = [];
    const unreadable = () => {
      throw new Error('cannot read child/events.ndjson: permission denied (EACCES)');
    };
    const trace = new LiveTrace({ ...SETTINGS, file, warn: (m) => warnings.push(m), creationOf: unreadable });
    // Live, a child run's run_created is not on the bus: the trace reads it from the child's record.
    const live = sampleRun().filter((event) => !(event.type === 'run_created' && event.runId === CHILD));
    for (const event of live) expect(() => trace.handle(event)).not.toThrow();
    await trace.close();
    expect(warnings).toEqual(["the run's trace stopped: cannot read child/events.ndjson: permission denied (EACCES)"]);
  });
});
