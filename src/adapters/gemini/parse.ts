import { count, isObject, MAX_TOOL_CONTENT_CHARS, parseJsonLine, str, type Json } from '../stream-json.js';
import { toolTarget } from '../tool-target.js';
import type { StreamEvent } from '../types.js';
import type { TokenUsage } from '../../core/models/tokens.js';

/**
 * What Gemini's shell tool shows for a failed command that printed nothing: its stream has no exit code, and a failed
 * command that printed something looks like a successful one (0.61.0).
 */
const FAILED_COMMAND = /^Command (exited with code: -?[1-9]\d*|terminated by signal: |failed: )/;

/** Tokens of a Gemini `result.stats`: `input` is the uncached part of `input_tokens`, `cached` the rest. */
export function geminiTokens(stats: unknown): TokenUsage {
  const s = isObject(stats) ? stats : {};
  const cached = count(s.cached);
  const input = typeof s.input === 'number' ? count(s.input) : Math.max(0, count(s.input_tokens) - cached);
  return { input, output: count(s.output_tokens), cacheRead: cached, cacheWrite: 0 };
}

/** The StreamEvents of one parsed `gemini --output-format stream-json` object; unknown types give none. */
export function geminiObjectEvents(object: Json): StreamEvent[] {
  switch (object.type) {
    case 'init':
      return [
        { kind: 'system', subtype: 'init', ...(str(object.session_id) ? { sessionId: str(object.session_id) } : {}), ...(str(object.model) ? { model: str(object.model) } : {}) },
      ];
    case 'message':
      return object.role === 'assistant' && typeof object.content === 'string' ? [{ kind: 'text', text: object.content }] : [];
    case 'tool_use': {
      const id = str(object.tool_id);
      const target = toolTarget(object.parameters);
      return [{ kind: 'tool_use', name: str(object.tool_name) ?? 'tool', ...(id ? { id } : {}), ...(target ? { target } : {}) }];
    }
    case 'tool_result': {
      const id = str(object.tool_id);
      const error = isObject(object.error) ? str(object.error.message) : undefined;
      const content = (error ?? str(object.output) ?? '').slice(0, MAX_TOOL_CONTENT_CHARS);
      const isError = object.status === 'error' || FAILED_COMMAND.test(str(object.output) ?? '');
      return [{ kind: 'tool_result', isError, ...(id ? { id } : {}), content }];
    }
    case 'error':
      return [{ kind: 'error', message: str(object.message) ?? 'error' }];
    case 'result': {
      const tokens = geminiTokens(object.stats);
      return [
        { kind: 'usage', tokens },
        { kind: 'result', ok: object.status === 'success', tokens },
      ];
    }
    default:
      return [];
  }
}

/** The StreamEvents of one stdout line of Gemini CLI; garbage, partial JSON and unknown types give none. */
export function parseGeminiLine(line: string): StreamEvent[] {
  const object = parseJsonLine(line);
  return object ? geminiObjectEvents(object) : [];
}
