import { count, isObject, MAX_TOOL_CONTENT_CHARS, parseJsonLine, str, type Json } from '../stream-json.js';
import { errorMessageClass } from '../error-message-class.js';
import { toolTarget } from '../tool-target.js';
import type { StreamEvent } from '../types.js';
import type { FailureClass } from '../../core/errors/error-codes.js';
import type { TokenUsage } from '../../core/models/tokens.js';

/** Tokens of a Codex `turn.completed.usage`; OpenAI counts cached tokens inside input, Wave keeps them apart. */
export function codexTokens(usage: unknown): TokenUsage {
  const u = isObject(usage) ? usage : {};
  const cached = count(u.cached_input_tokens);
  return { input: Math.max(0, count(u.input_tokens) - cached), output: count(u.output_tokens), cacheRead: cached, cacheWrite: count(u.cache_write_input_tokens) };
}

/** The failure class a Codex error message names (its messages carry the HTTP status or the kind of break). */
export const codexErrorClass: (message: string) => FailureClass = errorMessageClass;

function toolName(item: Json): string {
  if (item.type === 'command_execution') return 'shell';
  if (item.type === 'mcp_tool_call') return `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`;
  return str(item.type) ?? 'tool';
}

function toolTargetOf(item: Json): string | undefined {
  if (item.type === 'file_change' && Array.isArray(item.changes)) {
    return (
      item.changes
        .map((c) => (isObject(c) ? str(c.path) : undefined))
        .filter(Boolean)
        .join(' ') || undefined
    );
  }
  if (item.type === 'mcp_tool_call') return toolTarget(item.arguments);
  if (item.type === 'web_search') return str(item.query);
  return toolTarget(item);
}

const TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search']);

/**
 * Reads Codex's `exec --json` objects. Stateful only to pair tool items: a tool that completes without having
 * started (messages, some tools) still gets its tool_use event first.
 */
export class CodexEventReader {
  private readonly started = new Set<string>();

  /** The StreamEvents of one parsed object; unknown types give none. */
  events(object: Json): StreamEvent[] {
    const item = isObject(object.item) ? object.item : undefined;
    switch (object.type) {
      case 'thread.started':
        return [{ kind: 'system', subtype: 'init', ...(str(object.thread_id) ? { sessionId: str(object.thread_id) } : {}) }];
      case 'turn.started':
        return [{ kind: 'system', subtype: 'turn_started' }];
      case 'item.started':
        return item && TOOL_ITEMS.has(str(item.type) ?? '') ? this.toolUse(item) : [];
      case 'item.completed':
        return item ? this.completed(item) : [];
      case 'turn.completed':
        return [{ kind: 'usage', tokens: codexTokens(object.usage) }];
      case 'turn.failed': {
        const message = str(isObject(object.error) ? object.error.message : undefined) ?? 'the turn failed';
        return [{ kind: 'error', message, failureClass: codexErrorClass(message) }];
      }
      case 'error': {
        const message = str(object.message) ?? 'error';
        const retry = /^Reconnecting\.\.\. (\d+)\/\d+/.exec(message);
        return retry ? [{ kind: 'retry', attempt: Number(retry[1]), message }] : [{ kind: 'error', message, failureClass: codexErrorClass(message) }];
      }
      default:
        return [];
    }
  }

  private toolUse(item: Json): StreamEvent[] {
    const id = str(item.id);
    if (id) this.started.add(id);
    const target = toolTargetOf(item);
    return [{ kind: 'tool_use', name: toolName(item), ...(id ? { id } : {}), ...(target ? { target } : {}) }];
  }

  private completed(item: Json): StreamEvent[] {
    if (item.type === 'agent_message') return typeof item.text === 'string' ? [{ kind: 'text', text: item.text }] : [];
    if (item.type === 'reasoning') return typeof item.text === 'string' ? [{ kind: 'thinking', text: item.text }] : [];
    if (item.type === 'error') return [{ kind: 'system', subtype: 'warning', message: str(item.message) ?? '' }];
    if (!TOOL_ITEMS.has(str(item.type) ?? '')) return [];
    const id = str(item.id);
    const before = id && this.started.has(id) ? [] : this.toolUse(item);
    const exit = typeof item.exit_code === 'number' ? item.exit_code : 0;
    const isError = item.status === 'failed' || exit !== 0 || item.error !== undefined;
    const content = (str(item.aggregated_output) ?? '').slice(0, MAX_TOOL_CONTENT_CHARS);
    return [...before, { kind: 'tool_result', isError, ...(id ? { id } : {}), content }];
  }
}

/** The StreamEvents of one stdout line of Codex, read without pairing state; garbage gives none. */
export function parseCodexLine(line: string, reader: CodexEventReader = new CodexEventReader()): StreamEvent[] {
  const object = parseJsonLine(line);
  return object ? reader.events(object) : [];
}
