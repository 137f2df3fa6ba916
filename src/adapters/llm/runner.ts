import { Redactor } from '../../redact.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../types.js';
import type { Failure } from '../../core/errors/failure.js';
import { newChatStreamState } from './chat-stream.js';
import { requestChatCompletion, type ChatMessage, type HttpTransport } from './chat-completion.js';
import { finishLlmAttempt } from './attempt-result.js';
import { HTTP_RECORD_FILE, recordingTransport } from './recording-transport.js';
import { join } from 'node:path';

export type { HttpTransport } from './chat-completion.js';

export interface LlmRunnerOptions {
  /** Hides the run's secrets in the files it writes and in messages. */
  redactor?: Redactor;
  /** Where requests go; the global fetch when absent. */
  transport?: HttpTransport;
}

/** The chat messages of one step: the persona's prompt as system, the rendered prompt as user. */
export function chatMessages(config: Pick<AdapterRunConfig, 'persona' | 'prompt'>): ChatMessage[] {
  const system = config.persona?.systemPrompt.trim();
  return [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: config.prompt }];
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
    const finish = (failure?: Failure, state = newChatStreamState(), stderr = ''): Promise<AdapterResult> =>
      finishLlmAttempt({ config, state, stderr, started, redactor: this.redactor, onEvent }, failure);
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
    const temperature = config.persona?.temperature;
    const { state, stderr, failure } = await requestChatCompletion({
      baseUrl: adapter.baseUrl,
      model: config.model ?? adapter.model ?? 'default',
      messages: chatMessages(config),
      ...(temperature === undefined ? {} : { temperature }),
      ...(key ? { key } : {}),
      adapterName: adapter.name,
      ...(keyEnv ? { keyEnv } : {}),
      signal,
      transport: config.recordHttp ? recordingTransport(this.transport, join(config.attemptDir, HTTP_RECORD_FILE), this.redactor) : this.transport,
      onEvent,
    });
    return finish(failure, state, stderr);
  }
}
