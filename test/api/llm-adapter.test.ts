// createLlmAdapter against the scripted model server: the AgentFn shape, the llm adapter's request and failure classes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmAdapter, LlmError, WaveError, type StreamEvent } from '../../src/api/index.js';
import { closedPort } from '../support/closed-port.js';
import { startModelServer, type ModelServer } from '../support/model-server.mjs';
import { waveErrorOf } from '../support/wave-error.js';

const KEY = 'sk-api-test-0123456789abcdef';
let server: ModelServer;
beforeAll(async () => void (server = await startModelServer()));
afterAll(() => server.close());

/** An AgentFn on one scenario of the scripted server. */
const agentOn = (scenario: string, options: { timeoutMs?: number; onEvent?: (event: StreamEvent) => void } = {}) =>
  createLlmAdapter({ baseUrl: `${server.url}/s/${scenario}/v1`, model: 'scripted-1', apiKey: KEY, temperature: 0.3, ...options });

/** The LlmError a failed call rejects with. */
async function rejection(call: Promise<string>): Promise<LlmError> {
  const error = await waveErrorOf(call);
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

describe('createLlmAdapter', () => {
  it("answers a context and a system prompt with the model's whole answer, streaming its events", async () => {
    const events: StreamEvent[] = [];
    const agent = agentOn(`text/${encodeURIComponent('Fine, thanks.')}`, { onEvent: (event) => events.push(event) });
    expect(await agent('How are you?', '  You are terse.  ')).toBe('Fine, thanks.');
    const request = server.requests.at(-1)!;
    expect(request.body).toMatchObject({
      model: 'scripted-1',
      stream: true,
      temperature: 0.3,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'How are you?' },
      ],
    });
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(
      events
        .filter((event) => event.kind === 'text')
        .map((event) => (event.kind === 'text' ? event.text : ''))
        .join(''),
    ).toBe('Fine, thanks.');
    expect(events.some((event) => event.kind === 'usage' && event.tokens.output > 0)).toBe(true);
  });

  it('takes the conversation so far as the context, after the system prompt; an empty system prompt sends none', async () => {
    const agent = agentOn('text/ok');
    const thread = [
      { role: 'user', content: 'Plan it.' },
      { role: 'assistant', content: 'Step one, step two.' },
      { role: 'user', content: 'Now do step one.' },
    ] as const;
    expect(await agent(thread, '')).toBe('ok');
    expect(server.requests.at(-1)!.body.messages).toEqual(thread);
  });

  it('rejects with an LlmError (a WaveError) of the failure class, in its own hints, the key never shown', async () => {
    const auth = await rejection(agentOn('http401')('hi', 'sys'));
    expect(auth).toBeInstanceOf(WaveError);
    expect(auth).toMatchObject({ code: 'auth_failed', failure: { class: 'auth_failed' }, hint: 'Check the apiKey passed to createLlmAdapter.' });
    expect(auth.message).toContain('HTTP 401');
    expect(JSON.stringify({ message: auth.message, hint: auth.hint, failure: auth.failure })).not.toContain(KEY);
    const limited = await rejection(agentOn('http429/3')('hi', 'sys'));
    expect(limited.failure).toMatchObject({ class: 'rate_limited', retryAfterMs: 3000 });
    expect(limited.hint).toMatch(/^Wait .*call again\.$/);
    const cut = await rejection(agentOn('truncated')('hi', 'sys'));
    expect(cut).toMatchObject({ code: 'server_error', hint: 'The model server failed or cut the answer short; call again.' });
    expect(cut.message).toContain('ended before the answer was complete');
  });

  it('names the URL of a server it cannot reach', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const error = await rejection(createLlmAdapter({ baseUrl })('hi', 'sys'));
    expect(error).toMatchObject({ code: 'server_error', hint: `Check that the model server at ${baseUrl} is running.` });
    expect(error.message).toContain(`could not reach ${baseUrl}/chat/completions`);
  });

  it('fails a call past timeoutMs as timeout, and one its signal cancels as aborted', async () => {
    const slow = await rejection(agentOn('hang', { timeoutMs: 300 })('hi', 'sys'));
    expect(slow).toMatchObject({ code: 'timeout', message: 'no whole answer within 300 ms' });
    const controller = new AbortController();
    const call = agentOn('hang')('hi', 'sys', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await rejection(call)).toMatchObject({ code: 'aborted', message: 'the call was cancelled' });
    controller.abort();
    expect(await rejection(agentOn('text/never')('hi', 'sys', { signal: controller.signal }))).toMatchObject({ code: 'aborted' });
  });
});
