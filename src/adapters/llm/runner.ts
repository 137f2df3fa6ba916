import { Redactor } from '../../redact.js';
import { abortFailure } from '../../process/spawn-failure.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../types.js';
import { fetchFailureCause } from '../../core/http-status.js';
import type { Failure } from '../../core/errors/failure.js';
import { applyChatChunk, chatUsageTokens, newChatStreamState, type ChatStreamState } from './chat-stream.js';
import { finishLlmAttempt } from './attempt-result.js';
import { httpFailure } from './http-failure.js';
import { SseDecoder } from './sse.js';

/** How a request reaches the model server: the global fetch, or what a recording, a replay or a test puts in its place. */
export type HttpTransport = (url: string, init: RequestInit) => Promise<Response>;

export interface LlmRunnerOptions {
  /** Hides the run's secrets in the files it writes and in messages. */
  redactor?: Redactor;
  /** Where requests go; the global fetch when absent. */
  transport?: HttpTransport;
}

/** The chat messages of one step: the persona's prompt as system, the rendered prompt as user. */
export function chatMessages(config: Pick<AdapterRunConfig, 'persona' | 'prompt'>): Array<{ role: string; content: string }> {
  const system = config.persona?.systemPrompt.trim();
  return [...(system ? [{ role: 'system', content: system }] : []), { role: 'user', content: config.prompt }];
}

/** The persona's sampling temperature as a request field; none when it sets none, so the server's default holds. */
export function temperatureOf(config: Pick<AdapterRunConfig, 'persona'>): { temperature?: number } {
  const temperature = config.persona?.temperature;
  return temperature === undefined ? {} : { temperature };
}

/**
 * The `llm` adapter: one streamed OpenAI-compatible chat completion per attempt, no process. The answer goes
 * to `stdout` in the attempt folder (so stdout artifacts work), HTTP error bodies to `stderr`.
 */
export class LlmRunner implements AdapterRunner {
  readonly type = 'llm' as const;
  private readonly redactor: Redactor;
  private readonly transport: HttpTransport;

  constructor(options: LlmRunnerOptions = {}) {
    this.redactor = options.redactor ?? new Redactor([]);
    this.transport = options.transport ?? ((url, init) => fetch(url, init));
  }

  /** Runs one chat completion; resolves with its result and never rejects. */
  async run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    const started = Date.now();
    const state = newChatStreamState();
    let stderr = '';
    const finish = (failure?: Failure): Promise<AdapterResult> => finishLlmAttempt({ config, state, stderr, started, redactor: this.redactor, onEvent }, failure);
    const { adapter } = config;
    if (!adapter.baseUrl) {
      return finish({
        class: 'spawn_failed',
        message: `adapter "${adapter.name}" has no base_url`,
        hint: `Set adapters.${adapter.name}.base_url to an OpenAI-compatible endpoint (…/v1).`,
      });
    }
    const keyEnv = adapter.apiKeyEnv;
    const key = keyEnv ? (config.env[keyEnv] ?? process.env[keyEnv]) : undefined;
    if (keyEnv && !key) {
      return finish({
        class: 'auth_failed',
        message: `the API key variable ${keyEnv} is not set`,
        hint: `Export ${keyEnv}, or remove adapters.${adapter.name}.api_key_env for a server without keys.`,
      });
    }
    const url = `${adapter.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const model = config.model ?? adapter.model ?? 'default';
    onEvent({ kind: 'system', subtype: 'request', model, message: `POST ${url}` });
    try {
      const response = await this.transport(url, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: chatMessages(config), ...temperatureOf(config) }),
      });
      if (!response.ok) {
        stderr = await response.text();
        return await finish(httpFailure(response.status, stderr, response.headers.get('retry-after'), adapter.name, keyEnv));
      }
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        return await finish(readWholeAnswer(state, await response.text(), onEvent));
      }
      const decoder = new SseDecoder();
      const apply = (payloads: string[]) => payloads.forEach((p) => applyChatChunk(state, p).forEach(onEvent));
      for await (const chunk of response.body ?? []) apply(decoder.push(chunk as Uint8Array));
      apply(decoder.end());
      return await finish(streamEndFailure(state, url));
    } catch (error) {
      if (signal.aborted) return finish(abortFailure(signal.reason));
      return finish({
        class: 'server_error',
        message: `could not reach ${url}: ${fetchFailureCause(error)}`,
        hint: `Check that the model server at ${adapter.baseUrl} is running.`,
      });
    }
  }
}

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
