import { count, isObject, MAX_TOOL_CONTENT_CHARS, parseJsonLine, str, type Json } from '../stream-json.js';
import { httpStatusClass } from '../../core/http-status.js';
import { toolTarget } from '../tool-target.js';
import type { StreamEvent } from '../types.js';
import type { TokenUsage } from '../../core/models/tokens.js';

/** Tokens of one OpenCode `step_finish` part, kept separate. */
export function openCodeTokens(part: Json): TokenUsage {
  const tokens = isObject(part.tokens) ? part.tokens : {};
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  return { input: count(tokens.input), output: count(tokens.output), cacheRead: count(cache.read), cacheWrite: count(cache.write) };
}

/** The HTTP status and message of an OpenCode `error` event. */
export function openCodeError(object: Json): { message: string; status?: number; retryAfter?: string } {
  const error = isObject(object.error) ? object.error : {};
  const data = isObject(error.data) ? error.data : {};
  const headers = isObject(data.responseHeaders) ? data.responseHeaders : {};
  const status = typeof data.statusCode === 'number' ? data.statusCode : undefined;
  const retryAfter = str(headers['retry-after']);
  return { message: str(data.message) ?? str(error.name) ?? 'OpenCode reported an error', ...(status !== undefined ? { status } : {}), ...(retryAfter ? { retryAfter } : {}) };
}

function toolEvents(part: Json): StreamEvent[] {
  const state = isObject(part.state) ? part.state : {};
  const id = str(part.callID);
  const name = str(part.tool) ?? 'tool';
  const target = toolTarget(state.input);
  const metadata = isObject(state.metadata) ? state.metadata : {};
  // A command that exits non-zero is still `status: "completed"`; only `metadata.exit` says it failed.
  const failedCommand = typeof metadata.exit === 'number' && metadata.exit !== 0;
  const isError = state.status === 'error' || failedCommand;
  const content = (str(state.status === 'error' ? state.error : state.output) ?? '').slice(0, MAX_TOOL_CONTENT_CHARS);
  return [
    { kind: 'tool_use', name, ...(id ? { id } : {}), ...(target ? { target } : {}) },
    { kind: 'tool_result', isError, ...(id ? { id } : {}), content },
  ];
}

/** The StreamEvents of one parsed `opencode run --format json` object; unknown types give none. */
export function openCodeObjectEvents(object: Json): StreamEvent[] {
  const part = isObject(object.part) ? object.part : {};
  switch (object.type) {
    case 'step_start':
      return [{ kind: 'system', subtype: 'step_start', ...(str(object.sessionID) ? { sessionId: str(object.sessionID) } : {}) }];
    case 'text':
      return typeof part.text === 'string' ? [{ kind: 'text', text: part.text }] : [];
    case 'reasoning':
      return typeof part.text === 'string' ? [{ kind: 'thinking', text: part.text }] : [];
    case 'tool_use':
      return toolEvents(part);
    case 'step_finish': {
      // OpenCode reports 0 for a model without prices in its config: no cost known, as the attempt's result says, not a free step.
      const cost = typeof part.cost === 'number' && Number.isFinite(part.cost) && part.cost > 0 ? part.cost : undefined;
      return [{ kind: 'usage', tokens: openCodeTokens(part), ...(cost !== undefined ? { costUsd: cost } : {}) }];
    }
    case 'error': {
      const error = openCodeError(object);
      const failureClass = httpStatusClass(error.status);
      return [{ kind: 'error', message: error.message, ...(failureClass ? { failureClass } : {}) }];
    }
    default:
      return [];
  }
}

/** The StreamEvents of one stdout line of OpenCode; garbage, partial JSON and unknown types give none. */
export function parseOpenCodeLine(line: string): StreamEvent[] {
  const object = parseJsonLine(line);
  return object ? openCodeObjectEvents(object) : [];
}
