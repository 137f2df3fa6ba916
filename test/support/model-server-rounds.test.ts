import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server.mjs';

const param = (text: string) => Buffer.from(text).toString('base64url');
const TASK = { role: 'user', content: 'Fix it.' };

describe('the scripted model server: the rounds scenario (one text per run of the CLI)', () => {
  let server: ModelServer;
  beforeAll(async () => void (server = await startModelServer()));
  afterAll(() => server.close());

  const prefix = `/s/rounds/out.txt/${param(JSON.stringify(['first', 'second']))}`;
  const ask = async (messages: object[]): Promise<any> => {
    const response = await fetch(`${server.url}${prefix}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-test', messages }),
    });
    return response.json();
  };
  /** A run of the CLI: the Write call it is asked for (its content), then the answer once the tool's result comes back as `result`. */
  const conversation = async (result: { is_error?: boolean; content: string }) => {
    const call = (await ask([TASK])).content[0];
    const answer = await ask([TASK, { role: 'assistant', content: [call] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, ...result }] }]);
    return { written: call.input.content as string, answer: answer.content[0].text as string };
  };

  it('writes the first text until a write went through, then the next, and the last one from then on', async () => {
    // A request that brings no tool result (a title, a retry) does not move the round on, nor does a refused write.
    expect((await ask([TASK])).content[0]).toMatchObject({ type: 'tool_use', name: 'Write', input: { file_path: 'out.txt', content: 'first' } });
    expect(await conversation({ is_error: true, content: 'denied' })).toEqual({ written: 'first', answer: 'Could not write out.txt: denied' });
    expect(await conversation({ content: 'File created.' })).toEqual({ written: 'first', answer: 'Wrote out.txt.' });
    expect((await conversation({ content: 'File created.' })).written).toBe('second');
    expect((await conversation({ content: 'File created.' })).written).toBe('second');
  });

  it('counts each list and each server apart', async () => {
    const other = await fetch(`${server.url}/s/rounds/out.txt/${param(JSON.stringify(['other']))}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-test', messages: [TASK] }),
    });
    expect(((await other.json()) as any).content[0].input.content).toBe('other');
    const fresh = await startModelServer();
    try {
      const response = await fetch(`${fresh.url}${prefix}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'claude-test', messages: [TASK] }) });
      expect(((await response.json()) as any).content[0].input.content).toBe('first');
    } finally {
      await fresh.close();
    }
  });
});
