import { requestChatCompletion, type ChatMessage, type HttpTransport } from '../adapters/llm/chat-completion.js';
import type { StreamEvent } from '../adapters/types.js';
import { WaveError } from '../core/errors/errors.js';
import type { Failure } from '../core/errors/failure.js';
import { Redactor } from '../redact.js';

export type { ChatMessage } from '../adapters/llm/chat-completion.js';

/**
 * A single-shot agent: the thread's context (one user message, or the conversation so far) and a system prompt in, the
 * model's answer out. `options.signal` cancels one call.
 */
export type AgentFn = (context: string | readonly ChatMessage[], systemPrompt: string, options?: { signal?: AbortSignal }) => Promise<string>;

/** Where an AgentFn asks and how: an OpenAI-compatible endpoint, as the manifest's `llm` adapter names one. */
export interface LlmAdapterOptions {
  /** The server's OpenAI-compatible base URL, ending in /v1 (the adapter's `base_url`). */
  baseUrl: string;
  /** The model asked for; `default` when absent, which most local servers read as their loaded model. */
  model?: string;
  /** Sent as a bearer token; none for a server without keys. Never shown in an error's message. */
  apiKey?: string;
  temperature?: number;
  /** How long one call may take before it fails `timeout`; no limit when absent. */
  timeoutMs?: number;
  /** Each event of a call's stream as it comes: `text` pieces, `thinking`, `usage` (tokens), the `system` request line. */
  onEvent?: (event: StreamEvent) => void;
  /** Where requests go instead of the global fetch (a proxy agent, a recording, a test). */
  fetch?: HttpTransport;
}

/** A call of an AgentFn that failed: a WaveError whose code is the failure's class (`rate_limited`, `auth_failed` …), with the whole Failure. */
export class LlmError extends WaveError {
  constructor(readonly failure: Failure) {
    super(failure.class, failure.message, failure.hint ? { hint: failure.hint } : {});
    this.name = 'LlmError';
  }
}

/** The name hints use for where the endpoint and key came from. */
const CALLER = 'createLlmAdapter';

/**
 * An AgentFn over any OpenAI-compatible endpoint, on the `llm` adapter's own request, stream reading and failure
 * classes: it resolves with the whole answer, or rejects with an LlmError.
 */
export function createLlmAdapter(options: LlmAdapterOptions): AgentFn {
  const redactor = new Redactor(options.apiKey ? [options.apiKey] : []);
  const transport = options.fetch ?? ((url, init) => fetch(url, init));
  return async (context, systemPrompt, call = {}) => {
    const system = systemPrompt.trim();
    const thread: readonly ChatMessage[] = typeof context === 'string' ? [{ role: 'user', content: context }] : context;
    const { signal, done } = callSignal(options.timeoutMs, call.signal);
    try {
      const { state, failure } = await requestChatCompletion({
        baseUrl: options.baseUrl,
        model: options.model ?? 'default',
        messages: [...(system ? [{ role: 'system' as const, content: system }] : []), ...thread],
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
        ...(options.apiKey ? { key: options.apiKey } : {}),
        adapterName: CALLER,
        signal,
        transport,
        onEvent: options.onEvent ?? (() => undefined),
      });
      if (failure) {
        const { hint: _manifestHint, ...rest } = failure;
        const hint = hintFor(failure);
        throw new LlmError({ ...rest, message: redactor.redact(failure.message), ...(hint ? { hint } : {}) });
      }
      return state.text;
    } finally {
      done();
    }
  };
}

/** A call's signal: the caller's, and the time limit's; `done` clears the timer. */
function callSignal(timeoutMs: number | undefined, caller: AbortSignal | undefined): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const cancel = () => controller.abort({ class: 'aborted', message: 'the call was cancelled' } satisfies Failure);
  if (caller?.aborted) cancel();
  caller?.addEventListener('abort', cancel, { once: true });
  const timer =
    timeoutMs === undefined ? undefined : setTimeout(() => controller.abort({ class: 'timeout', message: `no whole answer within ${timeoutMs} ms` } satisfies Failure), timeoutMs);
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', cancel);
    },
  };
}

/** Hints in this API's words where the llm adapter's name manifest keys (api_key_env, max_concurrency, a step's retry policy). */
const API_HINTS: Partial<Record<Failure['class'], string>> = {
  auth_failed: 'Check the apiKey passed to createLlmAdapter.',
  rate_limited: 'Wait (failure.retryAfterMs says how long when the server did), then call again.',
  server_error: 'The model server failed or cut the answer short; call again.',
  non_zero_exit: 'Check the baseUrl and model passed to createLlmAdapter.',
};

/** The hint of a failed call: an unreachable server keeps its own (it names the URL), the rest speak of this API's options. */
function hintFor(failure: Failure): string | undefined {
  if (failure.class === 'server_error' && failure.message.startsWith('could not reach')) return failure.hint;
  return API_HINTS[failure.class] ?? failure.hint;
}
