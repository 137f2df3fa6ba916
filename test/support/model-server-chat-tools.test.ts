import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server.mjs';

const param = (text: string) => Buffer.from(text).toString('base64url');
const TOOLS = [{ type: 'function', function: { name: 'write', parameters: {} } }];

/** The SSE data objects of a streamed answer, without the closing [DONE]. */
async function chunks(response: Response): Promise<any[]> {
  const text = await response.text();
  expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  return text
    .split('\n\n')
    .map((block) => block.replace(/^data: /, '').trim())
    .filter((data) => data !== '' && data !== '[DONE]')
    .map((data) => JSON.parse(data));
}

describe("the scripted model server: Chat Completions tool calls in OpenCode's own tool shapes", () => {
  let server: ModelServer;
  beforeAll(async () => void (server = await startModelServer()));
  afterAll(() => server.close());

  const json = async (response: Response): Promise<any> => response.json();
  const chat = (prefix: string, body: object) =>
    fetch(`${server.url}${prefix}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('write/<file>/<content>: a streamed `write` call with filePath and content, then an answer once the tool result comes back', async () => {
    const prefix = `/s/write/notes.txt/${param('hello\n')}`;
    const first = await chunks(await chat(prefix, { stream: true, stream_options: { include_usage: true }, tools: TOOLS, messages: [{ role: 'user', content: 'write it' }] }));
    const calls = first.flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: expect.any(String), type: 'function', function: { name: 'write' } });
    expect(JSON.parse(calls.map((c) => c.function.arguments).join(''))).toEqual({ filePath: 'notes.txt', content: 'hello\n' });
    expect(first.map((c) => c.choices?.[0]?.finish_reason).filter(Boolean)).toEqual(['tool_calls']);
    expect(first.at(-1).usage.completion_tokens).toBeGreaterThan(0);
    const second = await chunks(
      await chat(prefix, {
        stream: true,
        tools: TOOLS,
        messages: [
          { role: 'user', content: 'write it' },
          { role: 'assistant', content: null, tool_calls: calls },
          { role: 'tool', tool_call_id: calls[0].id, content: 'Wrote file successfully.' },
        ],
      }),
    );
    expect(second.map((c) => c.choices?.[0]?.delta?.content ?? '').join('')).toBe('Wrote notes.txt.');
  });

  it('shell/<command>: a `bash` call with command and description; a request without tools (a title request) gets text', async () => {
    const prefix = `/s/shell/${param('cat notes.txt')}`;
    const response = await json(await chat(prefix, { tools: TOOLS, messages: [{ role: 'user', content: 'run it' }] }));
    const call = response.choices[0].message.tool_calls[0];
    expect(call.function.name).toBe('bash');
    expect(JSON.parse(call.function.arguments)).toMatchObject({ command: 'cat notes.txt', description: expect.any(String) });
    const title = await json(await chat(prefix, { messages: [{ role: 'user', content: 'Generate a title' }] }));
    expect(title.choices[0]).toMatchObject({ message: { content: 'Scripted title' }, finish_reason: 'stop' });
  });

  it('a refused tool call comes back as an error and the answer says the command failed', async () => {
    const response = await json(
      await chat(`/s/shell/${param('touch x')}`, {
        tools: TOOLS,
        messages: [
          { role: 'user', content: 'run it' },
          { role: 'tool', tool_call_id: 'call_0', content: 'The user has specified a rule which prevents you from using this specific tool call.' },
        ],
      }),
    );
    expect(response.choices[0].message.content).toMatch(/^The command failed: /);
  });
});
