import { describe, expect, it } from 'vitest';
import { GeminiStream, geminiFailure } from '../../src/adapters/gemini/outcome.js';
import { parseGeminiLine } from '../../src/adapters/gemini/parse.js';
import type { SpawnResult } from '../../src/process/spawn-spec.js';

const exited = (exitCode: number | null): SpawnResult => ({ exitCode, signal: null, aborted: false, skippedLines: 0, tail: '', stderrTail: '' });
const GARBAGE = ['', 'garbage', '{"type":"result","status":', '[1]', 'null', '{"type":"unknown_kind","x":1}', Buffer.from([0xc3, 0x28, 0xa0, 0xa1]).toString('latin1')];

// Lines recorded from Gemini CLI 0.61.0 against the scripted model server.
const GM = {
  init: '{"type":"init","timestamp":"t","session_id":"c881b5d9","model":"gemini-2.5-pro"}',
  user: '{"type":"message","timestamp":"t","role":"user","content":"write it"}',
  toolUse: '{"type":"tool_use","timestamp":"t","tool_name":"write_file","tool_id":"write_file_1","parameters":{"file_path":"notes.txt","content":"hello gemini\\n"}}',
  toolResult: '{"type":"tool_result","timestamp":"t","tool_id":"write_file_1","status":"success"}',
  delta1: '{"type":"message","timestamp":"t","role":"assistant","content":"Wrote ","delta":true}',
  delta2: '{"type":"message","timestamp":"t","role":"assistant","content":"notes.txt.","delta":true}',
  success:
    '{"type":"result","timestamp":"t","status":"success","stats":{"total_tokens":409,"input_tokens":376,"output_tokens":33,"cached":8,"input":368,"duration_ms":598,"tool_calls":1}}',
  truncated:
    '{"type":"result","timestamp":"t","status":"error","error":{"type":"unknown","message":"[API Error: Incomplete JSON segment at the end]"},"stats":{"total_tokens":0,"input_tokens":0,"output_tokens":0,"cached":0,"input":0}}',
  // `echo oops >&2; exit 3`: the stream carries only the output, so this failure cannot be told from a success.
  failedShell: '{"type":"tool_result","timestamp":"t","tool_id":"run_shell_command_1","status":"success","output":"oops"}',
  failedShellSilent: '{"type":"tool_result","timestamp":"t","tool_id":"run_shell_command_2","status":"success","output":"Command exited with code: 3"}',
  killedShell: '{"type":"tool_result","timestamp":"t","tool_id":"run_shell_command_3","status":"success","output":"Command terminated by signal: 9"}',
  badParams: '{"type":"tool_result","timestamp":"t","tool_id":"read_file_1","status":"error","error":{"type":"invalid_tool_params","message":"File not found"}}',
  error:
    '{"type":"result","timestamp":"t","status":"error","error":{"type":"Error","message":"[API Error: rate limit reached]"},"stats":{"total_tokens":0,"input_tokens":0,"output_tokens":0,"cached":0,"input":0}}',
};

describe('Gemini stream', () => {
  it('parses recorded lines; delta chunks after the last tool form the answer; success needs result status success', () => {
    expect(parseGeminiLine(GM.toolUse)).toEqual([{ kind: 'tool_use', id: 'write_file_1', name: 'write_file', target: 'notes.txt' }]);
    expect(parseGeminiLine(GM.user)).toEqual([]);
    const stream = new GeminiStream();
    for (const line of [GM.init, GM.user, GM.toolUse, GM.toolResult, GM.delta1, GM.delta2, GM.success]) stream.line(line);
    expect(stream.finish(exited(0))).toEqual({ ok: true, text: 'Wrote notes.txt.', sessionId: 'c881b5d9', tokens: { input: 368, output: 33, cacheRead: 8, cacheWrite: 0 } });
  });

  it('the exit code is the HTTP status mod 256; exit 0 without a result (SIGTERM) is no success', () => {
    const limited = new GeminiStream();
    limited.line(GM.error);
    expect(limited.finish(exited(173)).failure).toEqual({ class: 'rate_limited', message: '[API Error: rate limit reached]' });
    expect(geminiFailure('x', 145).class).toBe('auth_failed');
    expect(geminiFailure('x', 244).class).toBe('server_error');
    expect(geminiFailure('x', 1).class).toBe('non_zero_exit');
    const killed = new GeminiStream();
    killed.line(GM.init);
    expect(killed.finish(exited(0)).ok).toBe(false);
  });

  it('a stream cut off mid-answer is server_error, as Codex classes its own', () => {
    const cut = new GeminiStream();
    cut.line(GM.init);
    cut.line(GM.truncated);
    expect(cut.finish(exited(1)).failure).toEqual({ class: 'server_error', message: '[API Error: Incomplete JSON segment at the end]' });
  });

  it("a shell call that failed is an error: Gemini's own failure display, or an error status; a command's output is not", () => {
    const results = [GM.failedShell, GM.failedShellSilent, GM.killedShell, GM.badParams, GM.toolResult].map((line) => parseGeminiLine(line));
    expect(results.map((events) => events.map((e) => e.kind === 'tool_result' && e.isError))).toEqual([[false], [true], [true], [true], [false]]);
    expect(results[1]).toEqual([{ kind: 'tool_result', id: 'run_shell_command_2', isError: true, content: 'Command exited with code: 3' }]);
  });

  it('ignores garbage without throwing', () => {
    for (const line of GARBAGE) expect(() => parseGeminiLine(line)).not.toThrow();
    expect(GARBAGE.flatMap((l) => parseGeminiLine(l))).toEqual([]);
  });
});
