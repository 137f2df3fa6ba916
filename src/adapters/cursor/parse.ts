import { parseJsonLine } from '../../stream/lines.js';
import { toolTarget } from '../tool-target.js';
import type { StreamEvent } from '../types.js';

// cursor-agent is not installable offline and talks only to Cursor's backend: this parser follows its documented
// `--output-format stream-json` format and is tested on that, not on a live binary.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function messageText(object: Json): string {
  const message = isObject(object.message) ? object.message : {};
  const content = Array.isArray(message.content) ? message.content : [];
  return content.map((part) => (isObject(part) && part.type === 'text' ? (str(part.text) ?? '') : '')).join('');
}

/** `tool_call.<name>ToolCall: { args, result }` as [tool name, call body]; the name without its `ToolCall` suffix. */
function toolCallOf(object: Json): [string, Json] | undefined {
  const call = isObject(object.tool_call) ? object.tool_call : undefined;
  const key = call ? Object.keys(call)[0] : undefined;
  if (!call || !key || !isObject(call[key])) return undefined;
  return [key.replace(/ToolCall$/, ''), call[key] as Json];
}

/** The StreamEvents of one cursor-agent stream-json line; garbage, partial JSON and unknown types give none. */
export function parseCursorLine(line: string): StreamEvent[] {
  const object = parseJsonLine(line);
  if (!object) return [];
  switch (object.type) {
    case 'system':
      return [{ kind: 'system', ...(str(object.subtype) ? { subtype: str(object.subtype) } : {}), ...(str(object.session_id) ? { sessionId: str(object.session_id) } : {}), ...(str(object.model) ? { model: str(object.model) } : {}) }];
    case 'assistant': {
      const text = messageText(object);
      return text ? [{ kind: 'text', text }] : [];
    }
    case 'tool_call': {
      const call = toolCallOf(object);
      if (!call) return [];
      const [name, body] = call;
      const id = str(object.call_id);
      if (object.subtype === 'started') {
        const target = toolTarget(body.args);
        return [{ kind: 'tool_use', name, ...(id ? { id } : {}), ...(target ? { target } : {}) }];
      }
      if (object.subtype !== 'completed') return [];
      const result = isObject(body.result) ? body.result : {};
      const isError = 'error' in result || 'failure' in result || 'rejected' in result;
      return [{ kind: 'tool_result', isError, ...(id ? { id } : {}) }];
    }
    case 'result': {
      const text = str(object.result);
      return [{ kind: 'result', ok: object.is_error === false, ...(text !== undefined ? { text } : {}), ...(str(object.subtype) ? { subtype: str(object.subtype) } : {}) }];
    }
    default:
      return [];
  }
}
