import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSequence, parseScenarioPath, startModelServer, type ModelServer } from './model-server.mjs';

/** A completion's JSON body, loosely typed: the tests check its shape. */
const json = async (response: Response): Promise<any> => response.json();

const chat = (server: ModelServer, prefix: string, body: object = {}) =>
  fetch(`${server.url}${prefix}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], ...body }),
  });

describe('the scripted model server', () => {
  let server: ModelServer;
  beforeAll(async () => void (server = await startModelServer()));
  afterAll(() => server.close());

  it('splits scenario, parameters and API path at the first version segment', () => {
    expect(parseScenarioPath('/s/seq/abc/v1/chat/completions')).toEqual({ scenario: 'seq', params: ['abc'], prefix: '/s/seq/abc', path: '/v1/chat/completions' });
    expect(parseScenarioPath('/s/http500/v1beta/models/x:generateContent')).toMatchObject({ scenario: 'http500', params: [], path: '/v1beta/models/x:generateContent' });
    expect(parseScenarioPath('/v1/chat/completions')).toMatchObject({ scenario: 'text', path: '/v1/chat/completions' });
  });

  it('answers a text scenario without streaming, with the text from the path and usage', async () => {
    const response = await chat(server, `/s/text/${encodeURIComponent('plain answer')}`);
    const body = await json(response);
    expect(body.choices[0].message.content).toBe('plain answer');
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('answers a sequence by request index per prefix, and logs every request with its body', async () => {
    const prefix = `/s/seq/${encodeSequence(['first', { status: 503, text: 'busy' }, 'third'])}`;
    const texts = [];
    for (let i = 0; i < 4; i++) {
      const response = await chat(server, prefix);
      texts.push(response.ok ? (await json(response)).choices[0].message.content : response.status);
    }
    expect(texts).toEqual(['first', 503, 'third', 'third']);
    const logged = server.requests.filter((r) => r.scenario === 'seq');
    expect(logged.map((r) => r.requestIndex)).toEqual([0, 1, 2, 3]);
    expect(logged[0]!.body.messages[0].content).toBe('hi');
  });

  it('gives 429 with retry-after, 401 and 500 as HTTP errors', async () => {
    const limited = await chat(server, '/s/http429/7');
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);
    expect((await chat(server, '/s/http401')).status).toBe(401);
    expect((await chat(server, '/s/http500')).status).toBe(500);
  });

  it('streams SSE chunks ending in [DONE], and cuts the truncated scenario mid-JSON', async () => {
    const full = await (await chat(server, '/s/fenced', { stream: true })).text();
    expect(full).toContain('```json');
    expect(full.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const cut = await (await chat(server, '/s/truncated', { stream: true })).text();
    expect(cut).not.toContain('[DONE]');
    expect(() => JSON.parse(cut.trimEnd().split('\n').at(-1)!.slice(6))).toThrow();
  });

  it('runs by hand: prints its URL first and appends requests to a JSONL log', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'wave-ms-')), 'requests.jsonl');
    const child = execa(process.execPath, [new URL('./model-server.mjs', import.meta.url).pathname, '--log', log]);
    try {
      const url = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().split('\n')[0]!)));
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}/s/text/logged/v1/chat/completions`, { method: 'POST', body: '{"model":"m"}' });
      expect((await json(response)).choices[0].message.content).toBe('logged');
      expect(JSON.parse(readFileSync(log, 'utf8').trim())).toMatchObject({ scenario: 'text', params: ['logged'], body: { model: 'm' } });
    } finally {
      child.kill('SIGTERM');
      await child.catch(() => undefined);
    }
  });
});
