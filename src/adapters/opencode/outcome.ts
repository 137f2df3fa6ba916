import { parseJsonLine } from '../../stream/lines.js';
import { exitedWithoutResult } from '../agent-process.js';
import type { AgentOutcome, AgentStream } from '../agent-cli.js';
import { httpStatusClass, retryAfterMs } from '../../core/http-status.js';
import type { SpawnResult } from '../../process/spawn-spec.js';
import type { StreamEvent } from '../types.js';
import { NO_TOKENS, type TokenUsage } from '../../core/models/tokens.js';
import type { Failure } from '../../core/errors/failure.js';
import { openCodeError, openCodeObjectEvents } from './parse.js';
import { OpenCodeRetryLog } from './logs.js';
import { REACH_THE_STEP, withLoginHint } from '../login/login-hints.js';

/** What to do when OpenCode has no credentials, or had them refused: its own login, or a key the step sees. */
export const OPENCODE_LOGIN_HINT = `Log in with \`opencode auth login\`, or set the provider's API key variable (such as ANTHROPIC_API_KEY or OPENAI_API_KEY) and ${REACH_THE_STEP}.`;

/**
 * Reads one attempt of `opencode run --format json`. There is no result event: success is exit 0 without an
 * `error` event; tokens and cost are the sums of the `step_finish` parts; the last text part is the answer.
 */
export class OpenCodeStream implements AgentStream {
  private tokens: TokenUsage = { ...NO_TOKENS };
  private cost: number | undefined;
  private sessionId: string | undefined;
  private lastText = '';
  private failure: Failure | undefined;
  private readonly retries = new OpenCodeRetryLog();

  /** The events of one stdout line; never throws. */
  line(line: string): StreamEvent[] {
    const object = parseJsonLine(line);
    if (!object) return [];
    if (typeof object.sessionID === 'string') this.sessionId ??= object.sessionID;
    const events = openCodeObjectEvents(object);
    for (const event of events) {
      if (event.kind === 'text') this.lastText = event.text;
      if (event.kind === 'usage') {
        const t = event.tokens;
        this.tokens = {
          input: this.tokens.input + t.input,
          output: this.tokens.output + t.output,
          cacheRead: this.tokens.cacheRead + t.cacheRead,
          cacheWrite: this.tokens.cacheWrite + t.cacheWrite,
        };
        if (event.costUsd !== undefined) this.cost = (this.cost ?? 0) + event.costUsd;
      }
    }
    if (object.type === 'error') this.failure = failureOf(object);
    if (object.type === 'step_finish') this.retries.reset();
    return events;
  }

  /** Retry events from OpenCode's `--print-logs` stderr: its retries are otherwise silent and can wait 30 s each. */
  stderrLine(line: string): StreamEvent[] {
    return this.retries.line(line);
  }

  /** The outcome from the exit code and the error events seen. */
  finish(spawn: SpawnResult): AgentOutcome {
    const failure = this.failure ?? (spawn.exitCode === 0 ? undefined : exitedWithoutResult(spawn, 'OpenCode'));
    return {
      ok: failure === undefined,
      text: this.lastText,
      tokens: this.tokens,
      ...(this.sessionId ? { sessionId: this.sessionId } : {}),
      ...(this.cost !== undefined && this.cost > 0 ? { costUsd: this.cost } : {}),
      ...(failure ? { failure } : {}),
    };
  }
}

function failureOf(object: Record<string, unknown>): Failure {
  const error = openCodeError(object);
  const failureClass = httpStatusClass(error.status) ?? 'non_zero_exit';
  const wait = failureClass === 'rate_limited' ? retryAfterMs(error.retryAfter) : undefined;
  return withLoginHint({ class: failureClass, message: error.message, ...(wait !== undefined ? { retryAfterMs: wait } : {}) }, OPENCODE_LOGIN_HINT);
}
