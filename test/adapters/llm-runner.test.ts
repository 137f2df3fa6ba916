import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFailure } from '../../src/adapters/llm/http-failure.js';
import { LlmRunner } from '../../src/adapters/llm/runner.js';
import { SseDecoder } from '../../src/adapters/llm/sse.js';
import type { AdapterRunConfig, StreamEvent } from '../../src/adapters/types.js';
import { runAttempt } from '../../src/engine/attempt/attempt.js';
import { encodeSequence, FENCED_ANSWER, startModelServer, type ModelServer } from '../support/model-server.mjs';

let server: ModelServer;
beforeAll(async () => void (server = await startModelServer()));
afterAll(() => server.close());

function configFor(prefix: string, extra: Partial<AdapterRunConfig['adapter']> = {}): AdapterRunConfig {
  const dir = mkdtempSync(join(tmpdir(), 'wave-llm-'));
  return {
    runId: 'r',
    stepId: 's',
    attempt: 1,
    adapter: { name: 'llm', type: 'llm', env: {}, isolated: false, baseUrl: `${server.url}${prefix}/v1`, ...extra },
    persona: { name: 'critic', systemPrompt: 'You are terse.', allowedTools: [], deniedTools: [], allowedDomains: [], skills: [] },
    model: 'test-model',
    prompt: 'Say something.',
    execType: 'prompt',
    workspace: dir,
    attemptDir: join(dir, 'attempt-1'),
    env: { WAVE_TEST_KEY: 'sk-test-secret-value' },
    graceMs: 1000,
    maxLineBytes: 1024 * 1024,
  };
}

async function run(prefix: string, limits = { timeoutMs: 60_000, stallMs: 0 }, extra = {}) {
  const events: StreamEvent[] = [];
  const config = configFor(prefix, extra);
  const result = await runAttempt({ runner: new LlmRunner(), config, limits, signal: new AbortController().signal, onEvent: (e) => events.push(e) });
  return { result, events, config };
}

describe('the llm adapter against the scripted server', () => {
  it('streams a chat completion: system + user messages, text events, usage, the answer in stdout', async () => {
    const { result, events, config } = await run('/s/fenced', undefined, { apiKeyEnv: 'WAVE_TEST_KEY', prices: { input: 1, output: 2 } });
    expect(result.ok).toBe(true);
    expect(result.text).toBe(FENCED_ANSWER);
    expect(events.filter((e) => e.kind === 'text').length).toBeGreaterThan(1);
    expect(result.tokens.input).toBeGreaterThan(0);
    expect(result.tokens.output).toBe(Math.ceil(FENCED_ANSWER.length / 4));
    expect(result.costUsd).toBeCloseTo((result.tokens.input + 2 * result.tokens.output) / 1e6);
    expect(readFileSync(join(config.attemptDir, 'stdout'), 'utf8')).toBe(FENCED_ANSWER);
    const request = server.requests.filter((r) => r.scenario === 'fenced').at(-1)!;
    expect(request.body).toMatchObject({
      model: 'test-model',
      stream: true,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say something.' },
      ],
    });
    expect(request.headers.authorization).toBe('Bearer sk-test-secret-value');
    // No persona temperature: none is sent, so the server's own default holds.
    expect(request.body).not.toHaveProperty('temperature');
  });

  it("sends the persona's temperature in the request body", async () => {
    const config = configFor('/s/text/cool');
    const persona = { ...config.persona!, temperature: 0.15 };
    const result = await runAttempt({
      runner: new LlmRunner(),
      config: { ...config, persona },
      limits: { timeoutMs: 60_000, stallMs: 0 },
      signal: new AbortController().signal,
      onEvent: () => {},
    });
    expect(result.ok).toBe(true);
    const request = server.requests.filter((r) => r.scenario === 'text').at(-1)!;
    expect(request.body).toMatchObject({
      temperature: 0.15,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say something.' },
      ],
    });
  });

  it('sends its requests through the transport it is given, and takes the answer from it', async () => {
    const seen: Array<{ url: string; body: unknown }> = [];
    const sse = ['{"choices":[{"delta":{"content":"From the transport."}}]}', '{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4}}', '[DONE]'];
    const transport = async (url: string, init: RequestInit) => {
      seen.push({ url, body: JSON.parse(init.body as string) });
      return new Response(sse.map((data) => `data: ${data}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } });
    };
    const config = configFor('/unreachable');
    const result = await runAttempt({
      runner: new LlmRunner({ transport }),
      config,
      limits: { timeoutMs: 60_000, stallMs: 0 },
      signal: new AbortController().signal,
      onEvent: () => {},
    });
    expect(result.ok).toBe(true);
    expect(result.text).toBe('From the transport.');
    expect(result.tokens).toMatchObject({ input: 3, output: 4 });
    expect(seen).toEqual([{ url: `${server.url}/unreachable/v1/chat/completions`, body: expect.objectContaining({ model: 'test-model' }) }]);
  });

  it('classifies 401 as auth_failed', async () => {
    const { result } = await run('/s/http401');
    expect(result.failure).toMatchObject({ class: 'auth_failed', message: expect.stringContaining('401') });
  });

  it('classifies 429 as rate_limited with the retry-after wait', async () => {
    const { result } = await run('/s/http429/3');
    expect(result.failure).toMatchObject({ class: 'rate_limited', retryAfterMs: 3000 });
  });

  it('classifies 500 as server_error', async () => {
    const { result } = await run('/s/http500');
    expect(result.failure).toMatchObject({ class: 'server_error' });
  });

  it('ends a server that never answers as a timeout', async () => {
    const { result } = await run('/s/hang', { timeoutMs: 1500, stallMs: 0 });
    expect(result.failure?.class).toBe('timeout');
  });

  it('ends a stream that stops after its first event as stalled', async () => {
    const { result, events } = await run('/s/stall', { timeoutMs: 60_000, stallMs: 1500 });
    expect(events.some((e) => e.kind === 'text')).toBe(true);
    expect(result.failure?.class).toBe('stalled');
  });

  it('fails a stream cut mid-JSON without [DONE] as server_error, counting the broken payload', async () => {
    const { result } = await run('/s/truncated');
    expect(result.failure).toMatchObject({ class: 'server_error', message: expect.stringContaining('ended before') });
    expect(result.skippedLines).toBe(1);
  });

  it('fails without calling when the key variable is unset, and when the server is unreachable', async () => {
    const unset = await run('/s/text', undefined, { apiKeyEnv: 'WAVE_NO_SUCH_KEY' });
    expect(unset.result.failure).toMatchObject({ class: 'auth_failed', message: expect.stringContaining('WAVE_NO_SUCH_KEY') });
    const config = { ...configFor(''), adapter: { name: 'llm', type: 'llm' as const, env: {}, isolated: false, baseUrl: 'http://127.0.0.1:1/v1' } };
    const result = await new LlmRunner().run(config, new AbortController().signal, () => {});
    expect(result.failure).toMatchObject({ class: 'server_error', message: expect.stringContaining('could not reach') });
  });

  it('answers scripted sequences in order across attempts', async () => {
    const prefix = `/s/seq/${encodeSequence(['one', 'two'])}`;
    expect((await run(prefix)).result.text).toBe('one');
    expect((await run(prefix)).result.text).toBe('two');
  });
});

describe('SSE decoding and HTTP failure details', () => {
  it('joins payloads split across chunks and CRLF lines, ignores comments and event names', () => {
    const decoder = new SseDecoder();
    const bytes = new TextEncoder().encode(': ping\r\nevent: x\r\ndata: {"a":\r\n\r\ndata: 1}\n\ndata: [DO');
    const out = [...decoder.push(bytes.slice(0, 9)), ...decoder.push(bytes.slice(9)), ...decoder.push(new TextEncoder().encode('NE]\n\n'))];
    expect(out).toEqual(['{"a":', '1}', '[DONE]']);
    expect(decoder.end()).toEqual([]);
  });

  it('joins multi-line data, keeps a character split across chunks, and hands over an event cut before its blank line at the end', () => {
    const decoder = new SseDecoder();
    const bytes = new TextEncoder().encode('data: {"t":"é"}\ndata: second\n\ndata: [DONE]');
    const split = bytes.indexOf(0xa9); // the second byte of é
    expect([...decoder.push(bytes.slice(0, split)), ...decoder.push(bytes.slice(split))]).toEqual(['{"t":"é"}\nsecond']);
    expect(decoder.end()).toEqual(['[DONE]']);
  });

  it('classifies an error body that speaks of the context, and names the key variable of a refused key', () => {
    expect(httpFailure(400, '{"error":{"message":"maximum context length exceeded"}}', null, 'llm').class).toBe('context_exhausted');
    expect(httpFailure(403, 'no', null, 'llm', 'KEY').hint).toContain('KEY');
  });
});
