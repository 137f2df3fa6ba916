import { describe, expect, it } from 'vitest';
import { CursorStream } from '../../src/adapters/cursor/outcome.js';
import { cursorTokens, parseCursorLine } from '../../src/adapters/cursor/parse.js';
import type { SpawnResult } from '../../src/process/spawn-spec.js';

const exited = (exitCode: number | null, stderrTail = ''): SpawnResult => ({ exitCode, signal: null, aborted: false, skippedLines: 0, tail: '', stderrTail });

// Our own lines, written after the documented cursor-agent stream-json format (cursor.com/docs/cli/reference/output-format).
const CU = {
  init: '{"type":"system","subtype":"init","apiKeySource":"env","cwd":"/w","session_id":"s-1","model":"gpt-5","permissionMode":"default"}',
  user: '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"do it"}]},"session_id":"s-1"}',
  assistant: '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Reading the file."}]},"session_id":"s-1"}',
  readStarted: '{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"readToolCall":{"args":{"path":"README.md"}}},"session_id":"s-1"}',
  readDone:
    '{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"readToolCall":{"args":{"path":"README.md"},"result":{"success":{"content":"# x","totalLines":1}}}},"session_id":"s-1"}',
  shellStarted: '{"type":"tool_call","subtype":"started","call_id":"c2","tool_call":{"shellToolCall":{"args":{"command":"npm test"}}},"session_id":"s-1"}',
  shellFailed:
    '{"type":"tool_call","subtype":"completed","call_id":"c2","tool_call":{"shellToolCall":{"args":{"command":"npm test"},"result":{"success":{"exitCode":1,"stdout":"","stderr":"1 failing"}}}},"session_id":"s-1"}',
  writeRejected:
    '{"type":"tool_call","subtype":"completed","call_id":"c3","tool_call":{"writeToolCall":{"args":{"path":"/etc/x"},"result":{"error":{"message":"denied by permissions"}}}},"session_id":"s-1"}',
  functionCall: '{"type":"tool_call","subtype":"started","call_id":"c4","tool_call":{"function":{"name":"grep","arguments":"{\\"pattern\\":\\"TODO\\"}"}},"session_id":"s-1"}',
  final: '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Done."}]},"session_id":"s-1"}',
  success:
    '{"type":"result","subtype":"success","is_error":false,"duration_ms":1234,"duration_api_ms":1234,"result":"Reading the file.Done.","session_id":"s-1","request_id":"r1"}',
  successWithUsage:
    '{"type":"result","subtype":"success","is_error":false,"duration_ms":900,"result":"Done.","session_id":"s-1","usage":{"inputTokens":100,"outputTokens":20,"cacheReadTokens":30,"cacheWriteTokens":5}}',
  error: '{"type":"result","subtype":"error","is_error":true,"duration_ms":10,"result":"Unauthorized: invalid API key","session_id":"s-1"}',
};
const GARBAGE = [
  'garbage',
  '{"type":"result","is_error":',
  '[1]',
  'null',
  '{"type":"thinking","subtype":"delta","text":"hm"}',
  '{"type":"tool_call","subtype":"started"}',
  '{"type":"tool_call","tool_call":{"x":3}}',
  '{"type":"assistant","message":{"content":"str"}}',
  Buffer.from([0xc3, 0x28, 0xa0]).toString('latin1'),
];

describe('cursor-agent parser (the documented format: the CLI cannot run offline)', () => {
  it('turns each documented event into StreamEvents', () => {
    expect(parseCursorLine(CU.init)).toEqual([{ kind: 'system', subtype: 'init', sessionId: 's-1', model: 'gpt-5' }]);
    expect(parseCursorLine(CU.user)).toEqual([]);
    expect(parseCursorLine(CU.assistant)).toEqual([{ kind: 'text', text: 'Reading the file.' }]);
    expect(parseCursorLine(CU.readStarted)).toEqual([{ kind: 'tool_use', id: 'c1', name: 'read', target: 'README.md' }]);
    expect(parseCursorLine(CU.readDone)).toEqual([{ kind: 'tool_result', id: 'c1', isError: false, content: '# x' }]);
    expect(parseCursorLine(CU.shellStarted)).toEqual([{ kind: 'tool_use', id: 'c2', name: 'shell', target: 'npm test' }]);
    expect(parseCursorLine(CU.functionCall)).toEqual([{ kind: 'tool_use', id: 'c4', name: 'grep', target: 'TODO' }]);
    expect(parseCursorLine(CU.success)).toEqual([{ kind: 'result', ok: true, text: 'Reading the file.Done.', subtype: 'success' }]);
  });

  it('a failed tool: a non-zero exitCode or an error outcome', () => {
    expect(parseCursorLine(CU.shellFailed)).toEqual([{ kind: 'tool_result', id: 'c2', isError: true, content: '1 failing' }]);
    expect(parseCursorLine(CU.writeRejected)).toEqual([{ kind: 'tool_result', id: 'c3', isError: true, content: 'denied by permissions' }]);
  });

  it('reads usage when a result carries one (the documented result has none), in either spelling', () => {
    const tokens = { input: 100, output: 20, cacheRead: 30, cacheWrite: 5 };
    expect(parseCursorLine(CU.successWithUsage)).toEqual([
      { kind: 'usage', tokens },
      { kind: 'result', ok: true, text: 'Done.', subtype: 'success', tokens },
    ]);
    expect(cursorTokens({ input_tokens: 7, output_tokens: 2 })).toEqual({ input: 7, output: 2, cacheRead: 0, cacheWrite: 0 });
    expect(cursorTokens(undefined)).toBeUndefined();
    expect(cursorTokens({ unrelated: 1 })).toBeUndefined();
  });

  it('ignores garbage, unknown types and odd shapes without throwing', () => {
    for (const line of GARBAGE) expect(() => parseCursorLine(line)).not.toThrow();
    expect(GARBAGE.flatMap((l) => parseCursorLine(l))).toEqual([]);
  });
});

describe('cursor-agent outcome', () => {
  it('succeeds on a result with is_error false and exit 0; the result text is the answer; malformed lines are counted', () => {
    const stream = new CursorStream();
    for (const line of [CU.init, CU.user, 'not json', CU.assistant, CU.readStarted, CU.readDone, '', '[1]', CU.final, CU.success]) stream.line(line);
    expect(stream.malformedLines).toBe(2);
    expect(stream.finish(exited(0))).toEqual({
      ok: true,
      text: 'Reading the file.Done.',
      sessionId: 's-1',
      subtype: 'success',
      tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
  });

  it('an error result fails, classed from its message, with the login hint for credentials', () => {
    const stream = new CursorStream();
    for (const line of [CU.init, CU.error]) stream.line(line);
    const outcome = stream.finish(exited(1));
    expect(outcome.ok).toBe(false);
    expect(outcome.failure).toMatchObject({ class: 'auth_failed', message: 'Unauthorized: invalid API key' });
    expect(outcome.failure?.hint).toContain('CURSOR_API_KEY');
  });

  it('an exit without a result fails with stderr in the message; a success result followed by a non-zero exit is no success', () => {
    const crashed = new CursorStream();
    crashed.line(CU.init);
    const failure = crashed.finish(exited(2, 'fatal: connection reset\n')).failure;
    expect(failure).toEqual({ class: 'non_zero_exit', message: 'cursor-agent exited with code 2 without a result:\nfatal: connection reset' });
    const limited = new CursorStream().finish(exited(1, 'Error: 429 Too Many Requests'));
    expect(limited.failure?.class).toBe('rate_limited');
    const late = new CursorStream();
    late.line(CU.success);
    expect(late.finish(exited(3)).failure?.message).toBe('cursor-agent exited with code 3 after its result');
  });
});
