import { isObject, MAX_TOOL_CONTENT_CHARS, num, parseJsonLine, str, type Json } from '../stream-json.js';
import { toolTarget } from '../tool-target.js';
import type { StreamEvent } from '../types.js';
import type { TokenUsage } from '../../core/models/tokens.js';

// cursor-agent is not installable offline and talks only to Cursor's backend: this parser follows its documented
// `--output-format stream-json` format (cursor.com/docs/cli/reference/output-format) and is tested on that, not on a live binary.

/**
 * Tokens of a `result.usage`, when the CLI reports one: the documented result carries none, so a missing or empty
 * usage gives undefined. Both camelCase (`inputTokens`) and snake_case (`input_tokens`) names are read.
 */
export function cursorTokens(usage: unknown): TokenUsage | undefined {
  if (!isObject(usage)) return undefined;
  const count = (camel: string, snake: string) => num(usage[camel]) ?? num(usage[snake]);
  const tokens = {
    input: count('inputTokens', 'input_tokens'),
    output: count('outputTokens', 'output_tokens'),
    cacheRead: count('cacheReadTokens', 'cache_read_tokens'),
    cacheWrite: count('cacheWriteTokens', 'cache_write_tokens'),
  };
  if (Object.values(tokens).every((value) => value === undefined)) return undefined;
  return { input: tokens.input ?? 0, output: tokens.output ?? 0, cacheRead: tokens.cacheRead ?? 0, cacheWrite: tokens.cacheWrite ?? 0 };
}

function messageText(object: Json): string {
  const message = isObject(object.message) ? object.message : {};
  const content = Array.isArray(message.content) ? message.content : [];
  return content.map((part) => (isObject(part) && part.type === 'text' ? (str(part.text) ?? '') : '')).join('');
}

/** The arguments of a generic `function` tool call: an object, or a JSON string of one. */
function functionArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return parseJsonLine(value);
}

/**
 * The tool of a `tool_call` event as [name, arguments, call body]: `tool_call.<name>ToolCall: { args, result }`
 * named without its `ToolCall` suffix, or the documented generic `tool_call.function: { name, arguments }`.
 */
function toolCallOf(object: Json): [string, unknown, Json] | undefined {
  const call = isObject(object.tool_call) ? object.tool_call : undefined;
  const key = call ? Object.keys(call)[0] : undefined;
  const body = call && key ? call[key] : undefined;
  if (!key || !isObject(body)) return undefined;
  if (key === 'function') return [str(body.name) ?? 'function', functionArguments(body.arguments), body];
  return [key.replace(/ToolCall$/, ''), body.args, body];
}

/** A tool call's outcome: `result.success` unless it failed (`failure`, `error`, `rejected`, or a non-zero exitCode). */
function toolOutcome(result: unknown): { isError: boolean; content: string } {
  const r = isObject(result) ? result : {};
  const key = ['success', 'failure', 'error', 'rejected'].find((name) => name in r);
  const body = key ? r[key] : undefined;
  const fields = isObject(body) ? body : {};
  const exitCode = num(fields.exitCode);
  const isError = key !== undefined && (key !== 'success' || (exitCode !== undefined && exitCode !== 0));
  const text = str(body) ?? [fields.stdout, fields.content, fields.message, fields.stderr, fields.reason].map(str).find((s) => s !== undefined && s !== '');
  return { isError, content: (text ?? '').slice(0, MAX_TOOL_CONTENT_CHARS) };
}

function toolCallEvents(object: Json): StreamEvent[] {
  const call = toolCallOf(object);
  if (!call) return [];
  const [name, args, body] = call;
  const id = str(object.call_id);
  if (object.subtype === 'started') {
    const target = toolTarget(args);
    return [{ kind: 'tool_use', name, ...(id ? { id } : {}), ...(target ? { target } : {}) }];
  }
  if (object.subtype !== 'completed') return [];
  return [{ kind: 'tool_result', ...(id ? { id } : {}), ...toolOutcome(body.result) }];
}

function resultEvents(object: Json): StreamEvent[] {
  const tokens = cursorTokens(object.usage);
  const text = str(object.result);
  const subtype = str(object.subtype);
  const result: StreamEvent = {
    kind: 'result',
    ok: object.is_error === false,
    ...(text !== undefined ? { text } : {}),
    ...(subtype ? { subtype } : {}),
    ...(tokens ? { tokens } : {}),
  };
  return tokens ? [{ kind: 'usage', tokens }, result] : [result];
}

/** The StreamEvents of one parsed `cursor-agent -p --output-format stream-json` object; unknown types give none. */
export function cursorObjectEvents(object: Json): StreamEvent[] {
  switch (object.type) {
    case 'system': {
      const sessionId = str(object.session_id);
      const model = str(object.model);
      return [{ kind: 'system', ...(str(object.subtype) ? { subtype: str(object.subtype) } : {}), ...(sessionId ? { sessionId } : {}), ...(model ? { model } : {}) }];
    }
    case 'assistant': {
      const text = messageText(object);
      return text ? [{ kind: 'text', text }] : [];
    }
    case 'tool_call':
      return toolCallEvents(object);
    case 'result':
      return resultEvents(object);
    default:
      return [];
  }
}

/** The StreamEvents of one stdout line of cursor-agent; garbage, partial JSON and unknown types give none. */
export function parseCursorLine(line: string): StreamEvent[] {
  const object = parseJsonLine(line);
  return object ? cursorObjectEvents(object) : [];
}
