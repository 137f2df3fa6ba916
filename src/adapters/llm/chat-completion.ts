import { fetchFailureCause } from '../../core/http-status.js';
import type { Failure } from '../../core/errors/failure.js';
import { abortFailure } from '../../process/spawn-failure.js';
import type { StreamEvent } from '../types.js';
import { applyChatChunk, chatUsageTokens, newChatStreamState, type ChatStreamState } from './chat-stream.js';
import { httpFailure } from './http-failure.js';
import { SseDecoder } from './sse.js';

/** How a request reaches the model server: the global fetch, or what a recording, a replay or a test puts in its place. */
export type HttpTransport = (url: string, init: RequestInit) => Promise<Response>;

/** One chat message of an OpenAI-compatible request. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One streamed chat completion to ask for. */
export interface ChatRequest {
  /** The server's OpenAI-compatible base URL (…/v1). */
  baseUrl: string;
  model: string;
  messages: readonly ChatMessage[];
  temperature?: number;
  /** The API key, sent as a bearer token; none for a server without keys. */
  key?: string;
  /** Where the key came from (a variable name, a manifest adapter), for the hints of an auth failure. */
  adapterName: string;
  keyEnv?: string;
  signal: AbortSignal;
  transport: HttpTransport;
  onEvent: (event: StreamEvent) => void;
}

/** What one chat completion came to: its stream's state, an HTTP error's body, and what went wrong (nothing when it is whole). */
export interface ChatExchange {
  state: ChatStreamState;
  stderr: string;
  failure?: Failure;
}

/** Streams one chat completion, emitting its events as they come; resolves with what it came to and never rejects. */
export async function requestChatCompletion(request: ChatRequest): Promise<ChatExchange> {
  const { baseUrl, model, key, signal, onEvent } = request;
  const state = newChatStreamState();
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  onEvent({ kind: 'system', subtype: 'request', model, message: `POST ${url}` });
  try {
    const response = await request.transport(url, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({
        model,
        stream: true,
        stream_options: { include_usage: true },
        messages: request.messages,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      }),
    });
    if (!response.ok) {
      const stderr = await response.text();
      return { state, stderr, failure: httpFailure(response.status, stderr, response.headers.get('retry-after'), request.adapterName, request.keyEnv) };
    }
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return exchange(state, readWholeAnswer(state, await response.text(), onEvent));
    const decoder = new SseDecoder();
    const apply = (payloads: string[]) => payloads.forEach((p) => applyChatChunk(state, p).forEach(onEvent));
    for await (const chunk of response.body ?? []) apply(decoder.push(chunk as Uint8Array));
    apply(decoder.end());
    return exchange(state, streamEndFailure(state, url));
  } catch (error) {
    if (signal.aborted) return exchange(state, abortFailure(signal.reason));
    return exchange(state, {
      class: 'server_error',
      message: `could not reach ${url}: ${fetchFailureCause(error)}`,
      hint: `Check that the model server at ${baseUrl} is running.`,
    });
  }
}

const exchange = (state: ChatStreamState, failure: Failure | undefined): ChatExchange => ({ state, stderr: '', ...(failure ? { failure } : {}) });

/** What is wrong with an answer once its stream has ended: an error it reported, a cut connection or the token limit; nothing when it is whole. */
function streamEndFailure(state: ChatStreamState, url: string): Failure | undefined {
  if (state.error) return { class: 'server_error', message: `the stream reported an error: ${state.error}` };
  if (!state.done && !state.finishReason) {
    return {
      class: 'server_error',
      message: `the stream from ${url} ended before the answer was complete`,
      hint: 'The server cut the connection; a retry policy on the step retries it.',
    };
  }
  if (state.finishReason === 'length') return { class: 'context_exhausted', message: "the answer was cut at the model's token limit" };
  return undefined;
}

/** A server that ignored `stream: true` and answered with one JSON completion. */
function readWholeAnswer(state: ChatStreamState, body: string, onEvent: (event: StreamEvent) => void): Failure | undefined {
  try {
    const parsed = JSON.parse(body) as { choices?: Array<{ message?: { content?: string }; finish_reason?: string }>; usage?: Parameters<typeof chatUsageTokens>[0] };
    state.text = parsed.choices?.[0]?.message?.content ?? '';
    state.finishReason = parsed.choices?.[0]?.finish_reason ?? 'stop';
    if (state.text) onEvent({ kind: 'text', text: state.text });
    if (parsed.usage) {
      state.tokens = chatUsageTokens(parsed.usage);
      onEvent({ kind: 'usage', tokens: state.tokens });
    }
    return undefined;
  } catch {
    return { class: 'server_error', message: `the server answered with neither an event stream nor JSON: ${body.slice(0, 200)}` };
  }
}
