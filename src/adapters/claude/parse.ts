import { count, isObject, MAX_TOOL_CONTENT_CHARS, num, parseJsonLine, str, type Json } from '../stream-json.js';
import { toolTarget } from '../tool-target.js';
import type { StreamEvent } from '../types.js';
import { addTokens, hasTokens, NO_TOKENS, type TokenUsage } from '../../core/models/tokens.js';

/** Tokens of a Claude `result.usage`, kept separate. */
export function claudeTokens(usage: unknown): TokenUsage {
  const u = isObject(usage) ? usage : {};
  return {
    input: count(u.input_tokens),
    output: count(u.output_tokens),
    cacheRead: count(u.cache_read_input_tokens),
    cacheWrite: count(u.cache_creation_input_tokens),
  };
}

/** Message ids whose usage is remembered: far more than Claude streams at once, and a long session stays flat. */
const REMEMBERED_MESSAGES = 256;

/**
 * Turns the usage that Claude repeats on every `assistant` line of one API message (one line per content block)
 * into usage events that add up: each message id counts once, and only what grew since its last line.
 */
export class ClaudeMessageUsage {
  private readonly seen = new Map<string, TokenUsage>();
  // The remembered ids in the order they came, as a ring: the oldest gives way to a new one, without an allocation.
  private readonly order: string[] = [];
  private next = 0;

  /** The usage event of one parsed `assistant` object, or undefined when it adds nothing. */
  event(object: Json): StreamEvent | undefined {
    const message = object.type === 'assistant' && isObject(object.message) ? object.message : undefined;
    if (!message || !isObject(message.usage)) return undefined;
    const now = claudeTokens(message.usage);
    const id = str(message.id);
    const seen = id === undefined ? undefined : this.seen.get(id);
    const before = seen ?? NO_TOKENS;
    const tokens: TokenUsage = {
      input: Math.max(0, now.input - before.input),
      output: Math.max(0, now.output - before.output),
      cacheRead: Math.max(0, now.cacheRead - before.cacheRead),
      cacheWrite: Math.max(0, now.cacheWrite - before.cacheWrite),
    };
    if (id) {
      if (!seen) this.remember(id);
      // A new message's first usage is its total so far; a known one's grows by what this line added.
      this.seen.set(id, seen ? addTokens(seen, tokens) : now);
    }
    return hasTokens(tokens) ? { kind: 'usage', tokens } : undefined;
  }

  private remember(id: string): void {
    const oldest = this.order[this.next];
    if (oldest !== undefined) this.seen.delete(oldest);
    this.order[this.next] = id;
    this.next = (this.next + 1) % REMEMBERED_MESSAGES;
  }
}

function toolResultContent(content: unknown): string | undefined {
  if (typeof content === 'string') return content.slice(0, MAX_TOOL_CONTENT_CHARS);
  if (!Array.isArray(content)) return undefined;
  const text = content.map((part) => (isObject(part) ? (str(part.text) ?? '') : '')).join('');
  return text.slice(0, MAX_TOOL_CONTENT_CHARS);
}

function systemEvents(object: Json): StreamEvent[] {
  const subtype = str(object.subtype);
  if (subtype === 'api_retry') {
    const event: StreamEvent = { kind: 'retry' };
    const attempt = num(object.attempt);
    const delayMs = num(object.retry_delay_ms);
    const status = num(object.error_status);
    const message = str(object.error);
    return [
      {
        ...event,
        ...(attempt !== undefined ? { attempt } : {}),
        ...(delayMs !== undefined ? { delayMs } : {}),
        ...(status !== undefined ? { status } : {}),
        ...(message ? { message } : {}),
      },
    ];
  }
  if (subtype === 'permission_denied') {
    const tool = str(object.tool_name) ?? 'a tool';
    return [{ kind: 'system', subtype, message: `${tool}: ${str(object.message) ?? 'permission denied'}` }];
  }
  const sessionId = str(object.session_id);
  const model = str(object.model);
  return [{ kind: 'system', ...(subtype ? { subtype } : {}), ...(sessionId && subtype === 'init' ? { sessionId } : {}), ...(model ? { model } : {}) }];
}

/**
 * The `error` codes of Claude's synthetic API-error messages that mean no usable credentials: "Not logged in" (no key,
 * no login) comes with `authentication_failed` and no HTTP status, since Claude refuses before sending any request.
 */
const CREDENTIAL_ERRORS = new Set(['authentication_failed', 'oauth_org_not_allowed']);

/** The error event of a synthetic API-error message's text, classed when its code means no usable credentials. */
function apiErrorEvent(object: Json, message: string): StreamEvent {
  return CREDENTIAL_ERRORS.has(str(object.error) ?? '') ? { kind: 'error', message, failureClass: 'auth_failed' } : { kind: 'error', message };
}

/** Whether an assistant message is Claude's synthetic report of an API error; asked only of a text block. */
function isApiError(object: Json): boolean {
  return object.error !== undefined || object.isApiErrorMessage === true || object.is_api_error_message === true;
}

function assistantEvents(object: Json): StreamEvent[] {
  const message = isObject(object.message) ? object.message : {};
  const blocks = Array.isArray(message.content) ? message.content : [];
  const events: StreamEvent[] = [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') {
      events.push(isApiError(object) ? apiErrorEvent(object, block.text) : { kind: 'text', text: block.text });
    } else if (block.type === 'thinking' && typeof block.thinking === 'string') {
      events.push({ kind: 'thinking', text: block.thinking });
    } else if (block.type === 'tool_use' && typeof block.name === 'string') {
      const event: StreamEvent & { kind: 'tool_use' } = { kind: 'tool_use', name: block.name };
      const id = str(block.id);
      const target = toolTarget(block.input);
      if (id) event.id = id;
      if (target) event.target = target;
      events.push(event);
    }
  }
  return events;
}

function userEvents(object: Json): StreamEvent[] {
  const message = isObject(object.message) ? object.message : {};
  const blocks = Array.isArray(message.content) ? message.content : [];
  const events: StreamEvent[] = [];
  for (const block of blocks) {
    if (!isObject(block) || block.type !== 'tool_result') continue;
    const event: StreamEvent & { kind: 'tool_result' } = { kind: 'tool_result', isError: block.is_error === true };
    const id = str(block.tool_use_id);
    const content = toolResultContent(block.content);
    if (id) event.id = id;
    if (content !== undefined) event.content = content;
    events.push(event);
  }
  return events;
}

function resultEvents(object: Json): StreamEvent[] {
  const tokens = claudeTokens(object.usage);
  const costUsd = num(object.total_cost_usd);
  const text = str(object.result);
  const subtype = str(object.subtype);
  // No usage event: the result's usage is the whole attempt's, which replaces the per-message usage seen before it.
  return [
    {
      kind: 'result',
      ok: object.is_error === false,
      tokens,
      ...(text !== undefined ? { text } : {}),
      ...(subtype ? { subtype } : {}),
      ...(costUsd !== undefined ? { costUsd } : {}),
    },
  ];
}

/** The StreamEvents of one parsed `claude -p --output-format stream-json` object; unknown types give none. */
export function claudeObjectEvents(object: Json): StreamEvent[] {
  switch (object.type) {
    case 'system':
      return systemEvents(object);
    case 'assistant':
      return assistantEvents(object);
    case 'user':
      return userEvents(object);
    case 'result':
      return resultEvents(object);
    default:
      return [];
  }
}

/** The StreamEvents of one stdout line of Claude Code; garbage, partial JSON and unknown types give none. */
export function parseClaudeLine(line: string): StreamEvent[] {
  const object = parseJsonLine(line);
  return object ? claudeObjectEvents(object) : [];
}
