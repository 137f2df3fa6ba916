import { describe, expect, it } from 'vitest';
import { ClaudeStream, claudeFailure } from '../../src/adapters/claude/outcome.js';
import { parseClaudeLine } from '../../src/adapters/claude/parse.js';
import { LOGIN_HINTS } from '../../src/adapters/agent-clis.js';
import type { SpawnResult } from '../../src/process/spawn-spec.js';
import { parseJsonLines } from '../../src/stream/lines.js';

// Lines recorded from Claude Code 2.1.330 against the scripted model server (long fields trimmed).
const SESSION = '86dc20ca-3ec6-40d6-a76d-545bab9f188f';
const RECORDED = {
  init: `{"type":"system","subtype":"init","cwd":"/tmp/ws","session_id":"${SESSION}","tools":["Bash","Edit","Read","Write"],"mcp_servers":[],"model":"claude-test","permissionMode":"bypassPermissions","apiKeySource":"ANTHROPIC_API_KEY","claude_code_version":"2.1.330","uuid":"u1"}`,
  toolUse: `{"type":"assistant","message":{"id":"msg_write_0","type":"message","role":"assistant","model":"claude-test","content":[{"type":"tool_use","id":"toolu_0","name":"Write","input":{"file_path":"hello.txt","content":"written\\n"}}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":2500,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"${SESSION}","uuid":"u2"}`,
  toolResult: `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_0","type":"tool_result","content":"File created successfully at: hello.txt"}]},"parent_tool_use_id":null,"session_id":"${SESSION}","uuid":"u3","tool_use_result":{"type":"create","filePath":"hello.txt"}}`,
  text: `{"type":"assistant","message":{"id":"msg_write_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"Wrote hello.txt."}],"stop_reason":null,"usage":{"input_tokens":2586,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"${SESSION}","uuid":"u4"}`,
  // 2.1.330 puts `type` last in result.
  success: `{"duration_api_ms":221,"stop_reason":"end_turn","session_id":"${SESSION}","total_cost_usd":0.0213104,"usage":{"input_tokens":5089,"cache_creation_input_tokens":14,"cache_read_input_tokens":22,"output_tokens":44,"output_tokens_details":{"thinking_tokens":0}},"permission_denials":[],"terminal_reason":"completed","subtype":"success","is_error":false,"num_turns":2,"result":"Wrote hello.txt.","type":"result","duration_ms":993,"uuid":"u5"}`,
  retry429: `{"type":"system","subtype":"api_retry","attempt":1,"max_retries":1,"retry_delay_ms":1090,"error_status":429,"error":"rate_limit","session_id":"${SESSION}","uuid":"u6"}`,
  synthetic429: `{"type":"assistant","message":{"id":"7370","model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","type":"message","usage":{"input_tokens":0,"output_tokens":0},"content":[{"type":"text","text":"API Error: Request rejected (429) · rate limit reached"}]},"parent_tool_use_id":null,"session_id":"${SESSION}","uuid":"u7","error":"rate_limit","isApiErrorMessage":true}`,
  result429: `{"duration_api_ms":0,"stop_reason":"stop_sequence","session_id":"${SESSION}","total_cost_usd":0,"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0},"permission_denials":[],"terminal_reason":"api_error","subtype":"success","is_error":true,"api_error_status":429,"result":"API Error: Request rejected (429) · rate limit reached","type":"result","duration_ms":2033,"uuid":"u8"}`,
  // 2.1.330 with no key and no login (trimmed): it refuses before any request, so the result has no HTTP status.
  notLoggedIn: `{"type":"assistant","message":{"id":"de06","model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","type":"message","usage":{"input_tokens":0,"output_tokens":0},"content":[{"type":"text","text":"Not logged in · Please run /login"}]},"parent_tool_use_id":null,"session_id":"${SESSION}","error":"authentication_failed","is_api_error_message":true}`,
  resultNotLoggedIn: `{"duration_api_ms":0,"stop_reason":"stop_sequence","session_id":"${SESSION}","total_cost_usd":0,"usage":{"input_tokens":0,"output_tokens":0},"terminal_reason":"api_error","is_error":true,"num_turns":1,"subtype":"success","api_error_status":null,"result":"Not logged in · Please run /login","type":"result"}`,
  denied: `{"type":"system","subtype":"permission_denied","tool_name":"Bash","tool_use_id":"toolu_0","decision_reason_type":"subcommandResults","message":"Permission to use Bash with command touch made.txt has been denied.","uuid":"u9"}`,
};

const exited = (exitCode: number | null, stderrTail = ''): SpawnResult => ({ exitCode, signal: null, aborted: false, skippedLines: 0, tail: '', stderrTail });

describe('parseClaudeLine on recorded lines', () => {
  it('turns each recorded event into the matching StreamEvents', () => {
    expect(parseClaudeLine(RECORDED.init)).toEqual([{ kind: 'system', subtype: 'init', sessionId: SESSION, model: 'claude-test' }]);
    expect(parseClaudeLine(RECORDED.toolUse)).toEqual([{ kind: 'tool_use', id: 'toolu_0', name: 'Write', target: 'hello.txt' }]);
    expect(parseClaudeLine(RECORDED.toolResult)).toEqual([{ kind: 'tool_result', id: 'toolu_0', isError: false, content: 'File created successfully at: hello.txt' }]);
    expect(parseClaudeLine(RECORDED.text)).toEqual([{ kind: 'text', text: 'Wrote hello.txt.' }]);
    expect(parseClaudeLine(RECORDED.retry429)).toEqual([{ kind: 'retry', attempt: 1, delayMs: 1090, status: 429, message: 'rate_limit' }]);
    expect(parseClaudeLine(RECORDED.synthetic429)).toEqual([{ kind: 'error', message: 'API Error: Request rejected (429) · rate limit reached' }]);
    expect(parseClaudeLine(RECORDED.denied)).toEqual([
      { kind: 'system', subtype: 'permission_denied', message: 'Bash: Permission to use Bash with command touch made.txt has been denied.' },
    ]);
    const tokens = { input: 5089, output: 44, cacheRead: 22, cacheWrite: 14 };
    // The result's usage is the attempt's total: it comes only on the result, never as a usage event to add.
    expect(parseClaudeLine(RECORDED.success)).toEqual([{ kind: 'result', ok: true, text: 'Wrote hello.txt.', subtype: 'success', tokens, costUsd: 0.0213104 }]);
  });

  it('fills the target of shell and search tools with the command and the pattern', () => {
    const call = (name: string, input: object) => JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 't', name, input }] } });
    expect(parseClaudeLine(call('Bash', { command: 'npm test\n  -- --run', description: 'x' }))[0]).toMatchObject({ target: 'npm test -- --run' });
    expect(parseClaudeLine(call('Grep', { pattern: 'TODO', path: '' }))[0]).toMatchObject({ target: 'TODO' });
    expect(parseClaudeLine(call('Edit', { file_path: '/w/a.ts', old_string: 'a' }))[0]).toMatchObject({ target: '/w/a.ts' });
    expect(parseClaudeLine(call('TodoWrite', { todos: [] }))[0]).toEqual({ kind: 'tool_use', id: 't', name: 'TodoWrite' });
  });

  it('ignores garbage, truncated lines, binary noise, unknown types and odd shapes without throwing', () => {
    const noise = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256)).toString('latin1');
    const bad = [
      '',
      'not json',
      RECORDED.success.slice(0, 120),
      noise,
      '[1,2,3]',
      'null',
      '42',
      '{"type":"stream_event","event":{"type":"content_block_delta"}}',
      '{"type":"some_future_event","payload":{}}',
      '{"type":"assistant","message":null}',
      '{"type":"assistant","message":{"content":"a string, not blocks"}}',
      '{"type":"assistant","message":{"content":[null, 3, {"type":"tool_use"}, {"type":"text"}]}}',
      '{"type":"user","message":{"content":[{"type":"tool_result","content":[{"text":1}]}]}}',
      '{"type":"system"}',
      '{"type":"result"}',
    ];
    for (const line of bad) expect(() => parseClaudeLine(line)).not.toThrow();
    expect(bad.slice(0, 12).flatMap(parseClaudeLine)).toEqual([]);
    // A result without is_error is not a success.
    expect(parseClaudeLine('{"type":"result"}')).toContainEqual(expect.objectContaining({ kind: 'result', ok: false }));
  });

  it('a 20 MB line: parsed when within the line limit, counted and skipped beyond it', () => {
    const huge = JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: 'x'.repeat(20 * 1024 * 1024) }] } });
    const events = parseClaudeLine(huge);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'text' });
    expect((events[0] as { text: string }).text).toHaveLength(20 * 1024 * 1024);
    const seen: unknown[] = [];
    const parser = parseJsonLines((o) => seen.push(...parseClaudeLine(JSON.stringify(o))), { maxLineBytes: 10 * 1024 * 1024 });
    parser.write(`${RECORDED.init}\n${huge}\n${RECORDED.text}\n`);
    parser.end();
    expect(parser.skippedLines).toBe(1);
    expect(seen).toHaveLength(2);
  });
});

describe('ClaudeStream: the outcome follows result.is_error', () => {
  const feed = (...lines: string[]) => {
    const stream = new ClaudeStream();
    for (const line of lines) stream.line(line);
    return stream;
  };

  it("success: text, session id, tokens kept apart, Claude's own cost", () => {
    const outcome = feed(RECORDED.init, RECORDED.toolUse, RECORDED.toolResult, RECORDED.text, RECORDED.success).finish(exited(0));
    expect(outcome).toEqual({
      ok: true,
      text: 'Wrote hello.txt.',
      sessionId: SESSION,
      tokens: { input: 5089, output: 44, cacheRead: 22, cacheWrite: 14 },
      costUsd: 0.0213104,
      subtype: 'success',
    });
  });

  it('an API error arrives as subtype "success" with is_error true: rate_limited with the retry delay Claude used', () => {
    const outcome = feed(RECORDED.init, RECORDED.retry429, RECORDED.synthetic429, RECORDED.result429).finish(exited(1));
    expect(outcome.ok).toBe(false);
    expect(outcome.failure).toEqual({ class: 'rate_limited', message: 'API Error: Request rejected (429) · rate limit reached', retryAfterMs: 1090 });
  });

  it('"Not logged in" (no HTTP status, error code authentication_failed): auth_failed with the login hint', () => {
    expect(parseClaudeLine(RECORDED.notLoggedIn)).toEqual([{ kind: 'error', message: 'Not logged in · Please run /login', failureClass: 'auth_failed' }]);
    const outcome = feed(RECORDED.init, RECORDED.notLoggedIn, RECORDED.resultNotLoggedIn).finish(exited(1));
    expect(outcome.failure).toEqual({ class: 'auth_failed', message: 'Not logged in · Please run /login', hint: LOGIN_HINTS.claude });
  });

  it('no result line: the exit and stderr explain the failure', () => {
    const outcome = feed(RECORDED.init, RECORDED.text).finish(exited(1, 'When using --print, --output-format=stream-json requires --verbose'));
    expect(outcome.ok).toBe(false);
    expect(outcome.failure?.class).toBe('non_zero_exit');
    expect(outcome.failure?.message).toContain('requires --verbose');
  });
});

describe('ClaudeStream: usage of each assistant message as it arrives', () => {
  const usageOf = (stream: ClaudeStream, line: string) => stream.line(line).filter((e) => e.kind === 'usage');
  const assistant = (id: string, usage: object, block: object = { type: 'text', text: 'x' }) =>
    JSON.stringify({ type: 'assistant', message: { id, type: 'message', role: 'assistant', content: [block], usage }, session_id: SESSION });

  it('each message adds its usage once, before the result; the result carries the total, with no usage event of its own', () => {
    const stream = new ClaudeStream();
    expect(usageOf(stream, RECORDED.toolUse)).toEqual([{ kind: 'usage', tokens: { input: 2500, output: 1, cacheRead: 0, cacheWrite: 0 } }]);
    expect(usageOf(stream, RECORDED.toolResult)).toEqual([]);
    expect(usageOf(stream, RECORDED.text)).toEqual([{ kind: 'usage', tokens: { input: 2586, output: 1, cacheRead: 0, cacheWrite: 0 } }]);
    expect(stream.line(RECORDED.success).map((e) => e.kind)).toEqual(['result']);
  });

  it('the lines of one message (one per content block) repeat its usage: counted once, and only what grew', () => {
    const stream = new ClaudeStream();
    const usage = { input_tokens: 100, output_tokens: 1, cache_read_input_tokens: 11, cache_creation_input_tokens: 7 };
    expect(usageOf(stream, assistant('msg_a', usage, { type: 'thinking', thinking: 'hm' }))).toEqual([
      { kind: 'usage', tokens: { input: 100, output: 1, cacheRead: 11, cacheWrite: 7 } },
    ]);
    expect(usageOf(stream, assistant('msg_a', usage))).toEqual([]);
    expect(usageOf(stream, assistant('msg_a', { ...usage, output_tokens: 30 }))).toEqual([{ kind: 'usage', tokens: { input: 0, output: 29, cacheRead: 0, cacheWrite: 0 } }]);
    expect(usageOf(stream, assistant('msg_b', usage))).toEqual([{ kind: 'usage', tokens: { input: 100, output: 1, cacheRead: 11, cacheWrite: 7 } }]);
  });

  it('lines of messages streamed at once (subagents) interleave and still count each message once', () => {
    const stream = new ClaudeStream();
    const usage = { input_tokens: 10, output_tokens: 1 };
    const ids = Array.from({ length: 200 }, (_, i) => `msg_${i}`);
    const first = ids.flatMap((id) => usageOf(stream, assistant(id, usage)));
    const again = ids.flatMap((id) => usageOf(stream, assistant(id, usage)));
    expect(first).toHaveLength(200);
    expect(again).toEqual([]);
  });

  it('a long session remembers only its recent messages: one seen thousands of messages ago counts as new', () => {
    const stream = new ClaudeStream();
    const usage = { input_tokens: 10, output_tokens: 1 };
    for (let i = 0; i < 5_000; i++) usageOf(stream, assistant(`msg_${i}`, usage));
    expect(usageOf(stream, assistant('msg_4999', usage))).toEqual([]);
    expect(usageOf(stream, assistant('msg_0', usage))).toHaveLength(1);
  });

  it("a synthetic API error message with zero usage adds nothing; a message without usage or id doesn't throw", () => {
    const stream = new ClaudeStream();
    expect(usageOf(stream, RECORDED.synthetic429)).toEqual([]);
    expect(usageOf(stream, JSON.stringify({ type: 'assistant', message: { content: [] } }))).toEqual([]);
    expect(usageOf(stream, JSON.stringify({ type: 'assistant', message: { usage: { input_tokens: 5 } } }))).toEqual([
      { kind: 'usage', tokens: { input: 5, output: 0, cacheRead: 0, cacheWrite: 0 } },
    ]);
  });
});

describe('claudeFailure: classes from api_error_status, subtypes and terminal reasons', () => {
  const result = (fields: object) => ({ type: 'result', is_error: true, subtype: 'success', ...fields });
  it.each([
    [{ api_error_status: 401 }, 'auth_failed'],
    [{ api_error_status: 403 }, 'auth_failed'],
    [{ api_error_status: 429 }, 'rate_limited'],
    [{ api_error_status: 500 }, 'server_error'],
    [{ api_error_status: 529 }, 'server_error'],
    [{ subtype: 'error_max_turns', errors: ['Reached maximum number of turns (1)'] }, 'max_turns'],
    [{ subtype: 'error_max_budget_usd', terminal_reason: 'budget_exhausted' }, 'budget_exhausted'],
    [{ terminal_reason: 'prompt_too_long' }, 'context_exhausted'],
    [{ subtype: 'error_during_execution' }, 'non_zero_exit'],
    [{ api_error_status: 400 }, 'non_zero_exit'],
  ])('%j -> %s', (fields, expected) => {
    expect(claudeFailure(result(fields))?.class).toBe(expected);
  });

  it('is_error false is success whatever the subtype says; anything else is not', () => {
    expect(claudeFailure({ is_error: false, subtype: 'error_during_execution' })).toBeUndefined();
    expect(claudeFailure({ subtype: 'success' })?.class).toBe('non_zero_exit');
  });
});
