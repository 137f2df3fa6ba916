import { mkdir, writeFile } from 'node:fs/promises';
import type { Redactor } from '../../redact.js';
import { attemptOutputFiles } from '../attempt-output.js';
import type { AdapterResult, AdapterRunConfig, StreamEvent } from '../types.js';
import { attemptCost } from '../../core/models/attempt-cost.js';
import { NO_TOKENS } from '../../core/models/tokens.js';
import type { Failure } from '../../core/errors/failure.js';
import type { ChatStreamState } from './chat-stream.js';

const TAIL_CHARS = 2_000;

/** What one chat completion attempt has gathered by its end. */
export interface LlmAttempt {
  config: AdapterRunConfig;
  state: ChatStreamState;
  /** An HTTP error's body, as the server sent it. */
  stderr: string;
  /** When the attempt began (ms since the epoch). */
  started: number;
  redactor: Redactor;
  onEvent: (event: StreamEvent) => void;
}

/** Writes the attempt's stdout and stderr (redacted), reports its result event and returns the adapter's result. */
export async function finishLlmAttempt(attempt: LlmAttempt, failure?: Failure): Promise<AdapterResult> {
  const { config, state, stderr, redactor } = attempt;
  const text = redactor.redact(state.text);
  await mkdir(config.attemptDir, { recursive: true });
  const files = attemptOutputFiles(config);
  await writeFile(files.stdoutPath, text);
  await writeFile(files.stderrPath, redactor.redact(stderr));
  const tokens = state.tokens ?? { ...NO_TOKENS };
  const costUsd = await attemptCost(tokens, undefined, config.adapter, config.model);
  if (failure) failure = { ...failure, message: redactor.redact(failure.message) };
  attempt.onEvent({ kind: 'result', ok: !failure, text, tokens, ...(costUsd !== undefined ? { costUsd } : {}) });
  return {
    ok: !failure,
    exitCode: failure ? null : 0,
    signal: null,
    text,
    tokens,
    ...(costUsd !== undefined ? { costUsd } : {}),
    ...(state.finishReason ? { subtype: state.finishReason } : {}),
    ...(failure ? { failure } : {}),
    skippedLines: state.skipped,
    outputTail: (text + (stderr ? `\n${redactor.redact(stderr)}` : '')).slice(-TAIL_CHARS),
    durationMs: Date.now() - attempt.started,
  };
}
