import type { StreamEvent } from '../types.js';
import type { TokenUsage } from '../../core/models/tokens.js';

/** What a chat completion stream has told so far. */
export interface ChatStreamState {
  text: string;
  finishReason?: string;
  done: boolean;
  model?: string;
  tokens?: TokenUsage;
  error?: string;
  /** Payloads that were not JSON: counted and skipped. */
  skipped: number;
}

interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

/** A new, empty stream state. */
export function newChatStreamState(): ChatStreamState {
  return { text: '', done: false, skipped: 0 };
}

/** Tokens from an OpenAI-style usage object; cached prompt tokens are kept apart from fresh input. */
export function chatUsageTokens(usage: ChatUsage): TokenUsage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return { input: Math.max(0, (usage.prompt_tokens ?? 0) - cached), output: usage.completion_tokens ?? 0, cacheRead: cached, cacheWrite: 0 };
}

/** Applies one SSE data payload of a chat completion stream; returns the events it makes. Never throws. */
export function applyChatChunk(state: ChatStreamState, data: string): StreamEvent[] {
  if (data.trim() === '[DONE]') {
    state.done = true;
    return [];
  }
  let chunk: {
    model?: string;
    choices?: Array<{ delta?: { content?: string | null; reasoning_content?: string | null }; finish_reason?: string | null }>;
    usage?: ChatUsage | null;
    error?: { message?: string } | string;
  };
  try {
    chunk = JSON.parse(data) as typeof chunk;
  } catch {
    state.skipped++;
    return [];
  }
  if (!chunk || typeof chunk !== 'object') return [];
  const events: StreamEvent[] = [];
  if (chunk.error) {
    state.error = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'the stream reported an error');
    events.push({ kind: 'error', message: state.error, failureClass: 'server_error' });
  }
  if (chunk.model && !state.model) state.model = chunk.model;
  for (const choice of chunk.choices ?? []) {
    const thinking = choice.delta?.reasoning_content;
    if (thinking) events.push({ kind: 'thinking', text: thinking });
    const content = choice.delta?.content;
    if (content) {
      state.text += content;
      events.push({ kind: 'text', text: content });
    }
    if (choice.finish_reason) state.finishReason = choice.finish_reason;
  }
  if (chunk.usage) {
    state.tokens = chatUsageTokens(chunk.usage);
    events.push({ kind: 'usage', tokens: state.tokens });
  }
  return events;
}
