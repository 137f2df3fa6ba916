import { describe, expect, it } from 'vitest';
import { CodexStream } from '../../src/adapters/codex/outcome.js';
import { codexErrorClass, parseCodexLine } from '../../src/adapters/codex/parse.js';
import { LOGIN_HINTS } from '../../src/adapters/agent-clis.js';
import { OpenCodeStream } from '../../src/adapters/opencode/outcome.js';
import { parseOpenCodeLine } from '../../src/adapters/opencode/parse.js';
import type { SpawnResult } from '../../src/process/spawn-spec.js';

const exited = (exitCode: number | null): SpawnResult => ({ exitCode, signal: null, aborted: false, skippedLines: 0, tail: '', stderrTail: '' });
const GARBAGE = [
  '',
  'not json',
  '{"type":"text","part":',
  '[]',
  'null',
  '{"type":"future_event"}',
  '{"type":"tool_use","part":null}',
  '{"type":"item.completed","item":{"type":"command_execution"}}',
  Buffer.from([0xff, 0xfe, 0x00, 0x1b]).toString('latin1'),
];

// Lines recorded from OpenCode 1.18.33 against the scripted model server (ids trimmed).
const OC = {
  start: '{"type":"step_start","timestamp":1,"sessionID":"ses_1","part":{"id":"p1","messageID":"m1","sessionID":"ses_1","type":"step-start"}}',
  tool: '{"type":"tool_use","timestamp":2,"sessionID":"ses_1","part":{"id":"p2","type":"tool","tool":"bash","callID":"call_1","state":{"status":"completed","input":{"command":"echo hi","description":"x"},"output":"hi\\n","metadata":{"exit":0}}}}',
  text: '{"type":"text","timestamp":3,"sessionID":"ses_1","part":{"id":"p3","type":"text","text":"Hello from the model server."}}',
  finish:
    '{"type":"step_finish","timestamp":4,"sessionID":"ses_1","part":{"id":"p4","reason":"stop","type":"step-finish","tokens":{"total":2392,"input":2385,"output":7,"reasoning":0,"cache":{"write":2,"read":3}},"cost":0}}',
  failedTool:
    '{"type":"tool_use","timestamp":2,"sessionID":"ses_1","part":{"type":"tool","tool":"bash","callID":"call_1","state":{"status":"completed","input":{"command":"echo oops >&2; exit 3","description":"Run the requested command"},"output":"oops\\n","metadata":{"output":"oops\\n","exit":3,"truncated":false},"title":"echo oops >&2; exit 3"}}}',
  error401:
    '{"type":"error","timestamp":5,"sessionID":"ses_1","error":{"name":"APIError","data":{"message":"invalid api key","statusCode":401,"isRetryable":false,"responseHeaders":{}}}}',
  error429:
    '{"type":"error","timestamp":5,"sessionID":"ses_1","error":{"name":"APIError","data":{"message":"rate limit reached","statusCode":429,"isRetryable":true,"responseHeaders":{"retry-after":"2"}}}}',
};

describe('OpenCode stream', () => {
  it('parses recorded lines; tokens and cost are the sums of step_finish parts; the last text is the answer', () => {
    expect(parseOpenCodeLine(OC.tool)).toEqual([
      { kind: 'tool_use', id: 'call_1', name: 'bash', target: 'echo hi' },
      { kind: 'tool_result', id: 'call_1', isError: false, content: 'hi\n' },
    ]);
    const stream = new OpenCodeStream();
    for (const line of [OC.start, OC.tool, OC.finish, OC.text, OC.finish]) stream.line(line);
    expect(stream.finish(exited(0))).toEqual({
      ok: true,
      text: 'Hello from the model server.',
      sessionId: 'ses_1',
      tokens: { input: 4770, output: 14, cacheRead: 6, cacheWrite: 4 },
    });
  });

  it('a bash call that exits non-zero is an error although OpenCode says "completed"', () => {
    expect(parseOpenCodeLine(OC.failedTool)).toEqual([
      { kind: 'tool_use', id: 'call_1', name: 'bash', target: 'echo oops >&2; exit 3' },
      { kind: 'tool_result', id: 'call_1', isError: true, content: 'oops\n' },
    ]);
  });

  it("its stderr log of a failed request is a retry event with OpenCode's longest backoff; the title request and a sixth failure are not", () => {
    const stream = new OpenCodeStream();
    const failed = (small: boolean) =>
      `timestamp=2026-11-23T05:35:01.560Z level=ERROR run=4deb4b12 message="stream error" providerID=wave modelID=m session.id=ses_1 small=${small} agent=build mode=primary error.error="AI_APICallError: internal server error"`;
    expect(stream.stderrLine(failed(true))).toEqual([]);
    expect(stream.stderrLine('timestamp=t level=ERROR message="something else"')).toEqual([]);
    const retries = [1, 2, 3, 4, 5, 6].flatMap(() => stream.stderrLine(failed(false)));
    expect(retries.map((e) => e.kind === 'retry' && [e.attempt, e.delayMs])).toEqual([
      [1, 2_500],
      [2, 5_000],
      [3, 10_000],
      [4, 20_000],
      [5, 40_000],
    ]);
    expect(retries[0]).toMatchObject({ message: 'AI_APICallError: internal server error' });
    // A finished step starts OpenCode's count again.
    stream.line(OC.finish);
    expect(stream.stderrLine(failed(false))).toEqual([{ kind: 'retry', attempt: 1, delayMs: 2_500, message: 'AI_APICallError: internal server error' }]);
  });

  it('error events decide the class (a refused key with the login hint); 429 carries its retry-after', () => {
    const auth = new OpenCodeStream();
    auth.line(OC.error401);
    expect(auth.finish(exited(1)).failure).toEqual({ class: 'auth_failed', message: 'invalid api key', hint: LOGIN_HINTS.opencode });
    const limited = new OpenCodeStream();
    limited.line(OC.error429);
    expect(limited.finish(exited(1)).failure).toEqual({ class: 'rate_limited', message: 'rate limit reached', retryAfterMs: 2000 });
    expect(new OpenCodeStream().finish(exited(1)).failure?.class).toBe('non_zero_exit');
  });

  it('ignores garbage without throwing', () => {
    for (const line of GARBAGE) expect(() => parseOpenCodeLine(line)).not.toThrow();
    expect(GARBAGE.slice(0, 6).flatMap((l) => parseOpenCodeLine(l))).toEqual([]);
  });
});

// Lines recorded from Codex 0.169.0 against the scripted model server.
const CX = {
  thread: '{"type":"thread.started","thread_id":"01a2-thread"}',
  fileStart: '{"type":"item.started","item":{"id":"item_0","type":"file_change","changes":[{"path":"/w/notes.txt","kind":"add"}],"status":"in_progress"}}',
  fileDone: '{"type":"item.completed","item":{"id":"item_0","type":"file_change","changes":[{"path":"/w/notes.txt","kind":"add"}],"status":"completed"}}',
  cmdDone:
    '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc \'echo oops >&2; exit 3\'","aggregated_output":"oops\\n","exit_code":3,"status":"failed"}}',
  message: '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Wrote notes.txt."}}',
  turn1: '{"type":"turn.completed","usage":{"input_tokens":204,"cached_input_tokens":10,"cache_write_input_tokens":0,"output_tokens":40,"reasoning_output_tokens":0}}',
  turn2: '{"type":"turn.completed","usage":{"input_tokens":306,"cached_input_tokens":10,"cache_write_input_tokens":1,"output_tokens":60,"reasoning_output_tokens":0}}',
  reconnect: '{"type":"error","message":"Reconnecting... 1/1 (We’re currently experiencing high demand)"}',
  failed: '{"type":"turn.failed","error":{"message":"unexpected status 401 Unauthorized: fake-llm: HTTP 401"}}',
};

describe('Codex stream', () => {
  it('pairs tool items, and a tool that completes without starting still gets its tool_use first', () => {
    const stream = new CodexStream();
    expect(stream.line(CX.fileStart)).toEqual([{ kind: 'tool_use', id: 'item_0', name: 'file_change', target: '/w/notes.txt' }]);
    expect(stream.line(CX.fileDone)).toEqual([{ kind: 'tool_result', id: 'item_0', isError: false, content: '' }]);
    expect(stream.line(CX.cmdDone)).toEqual([
      { kind: 'tool_use', id: 'item_1', name: 'shell', target: "/bin/bash -lc 'echo oops >&2; exit 3'" },
      { kind: 'tool_result', id: 'item_1', isError: true, content: 'oops\n' },
    ]);
  });

  it('turn.completed is success; usage is cumulative, so the last turn holds the totals, cached kept apart', () => {
    const stream = new CodexStream();
    for (const line of [CX.thread, CX.message, CX.turn1, CX.turn2]) stream.line(line);
    expect(stream.finish(exited(0))).toEqual({ ok: true, text: 'Wrote notes.txt.', sessionId: '01a2-thread', tokens: { input: 296, output: 60, cacheRead: 10, cacheWrite: 1 } });
  });

  it('turn.failed is a failure classed from its message; reconnects are retry events', () => {
    const stream = new CodexStream();
    expect(stream.line(CX.reconnect)).toEqual([{ kind: 'retry', attempt: 1, message: 'Reconnecting... 1/1 (We’re currently experiencing high demand)' }]);
    stream.line(CX.failed);
    expect(stream.finish(exited(1)).failure).toMatchObject({ class: 'auth_failed', hint: LOGIN_HINTS.codex });
    expect(codexErrorClass('exceeded retry limit, last status: 429 Too Many Requests')).toBe('rate_limited');
    expect(codexErrorClass('stream disconnected before completion: stream closed before response.completed')).toBe('server_error');
    expect(codexErrorClass('idle timeout waiting for SSE')).toBe('stalled');
    // Exit 0 without turn.completed is not success.
    expect(new CodexStream().finish(exited(0)).ok).toBe(false);
  });

  it('ignores garbage without throwing', () => {
    for (const line of GARBAGE) expect(() => parseCodexLine(line)).not.toThrow();
    expect(GARBAGE.slice(0, 6).flatMap((l) => parseCodexLine(l))).toEqual([]);
  });
});
