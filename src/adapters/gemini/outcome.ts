import { parseJsonLine } from '../../stream/lines.js';
import { exitedWithoutResult } from '../agent-process.js';
import type { AgentOutcome, AgentStream } from '../agent-cli.js';
import { httpStatusClass } from '../../core/http-status.js';
import type { SpawnResult } from '../../process/spawn-spec.js';
import type { StreamEvent } from '../types.js';
import { NO_TOKENS } from '../../core/models/tokens.js';
import type { Failure } from '../../core/errors/failure.js';
import { geminiObjectEvents, geminiTokens } from './parse.js';
import { GEMINI_GATEWAY_HINT, REACH_THE_STEP, withLoginHint } from '../login/login-hints.js';

/** What to do when Gemini CLI has no credentials, or had them refused: its own login, or a key the step sees. */
export const GEMINI_LOGIN_HINT = `Set an API key in GEMINI_API_KEY and ${REACH_THE_STEP}, or run \`gemini\` once and sign in with Google.`;

/** Gemini exits with the HTTP status of a failed request, mod 256. */
const EXIT_STATUSES: Record<number, number> = { 145: 401, 147: 403, 173: 429, 244: 500, 246: 502, 247: 503 };

/** Gemini's exit code when it finds no usable auth method before any request ("Please set an Auth method…"). */
const AUTH_EXIT = 41;

/** A Gemini run that ended without a result: exit 41 means it had no credentials, anything else is non_zero_exit. */
function geminiExitFailure(spawn: SpawnResult): Failure {
  const failure = exitedWithoutResult(spawn, 'Gemini CLI');
  if (spawn.exitCode !== AUTH_EXIT) return failure;
  if (/invalid auth method/i.test(spawn.stderrTail)) return { ...failure, class: 'auth_failed', hint: GEMINI_GATEWAY_HINT };
  return withLoginHint({ ...failure, class: 'auth_failed' }, GEMINI_LOGIN_HINT);
}

/** The failure class of a Gemini error: from its exit code (an HTTP status mod 256), else from the message. */
export function geminiFailure(message: string, exitCode: number | null): Failure {
  const fromMessage = /\b(401|403|429|5\d\d)\b/.exec(message)?.[1];
  const status = (exitCode !== null ? EXIT_STATUSES[exitCode] : undefined) ?? (fromMessage ? Number(fromMessage) : undefined);
  // A stream cut off mid-answer is the model server's failure, as Codex's "stream disconnected" is.
  const truncated = /incomplete json segment/i.test(message);
  const failureClass = httpStatusClass(status) ?? (exitCode === 53 ? 'max_turns' : truncated ? 'server_error' : 'non_zero_exit');
  return withLoginHint({ class: failureClass, message }, GEMINI_LOGIN_HINT);
}

/**
 * Reads one attempt of Gemini CLI. The run succeeded only when a `result` with status "success" came: the exit code
 * alone is not enough (SIGTERM gives 0). Assistant text arrives as delta chunks, joined into the answer.
 */
export class GeminiStream implements AgentStream {
  private result: Record<string, unknown> | undefined;
  private sessionId: string | undefined;
  private text = '';
  private afterTool = false;

  /** The events of one stdout line; never throws. */
  line(line: string): StreamEvent[] {
    const object = parseJsonLine(line);
    if (!object) return [];
    const events = geminiObjectEvents(object);
    for (const event of events) {
      if (event.kind === 'system' && event.sessionId) this.sessionId = event.sessionId;
      if (event.kind === 'tool_use' || event.kind === 'tool_result') this.afterTool = true;
      if (event.kind === 'text') {
        // The answer is the assistant text after the last tool call.
        this.text = this.afterTool ? event.text : this.text + event.text;
        this.afterTool = false;
      }
    }
    if (object.type === 'result') this.result = object;
    return events;
  }

  /** The outcome from the `result` event and the exit code. */
  finish(spawn: SpawnResult): AgentOutcome {
    const sessionId = this.sessionId ? { sessionId: this.sessionId } : {};
    const result = this.result;
    if (!result) return { ok: false, text: this.text, tokens: { ...NO_TOKENS }, ...sessionId, failure: geminiExitFailure(spawn) };
    const tokens = geminiTokens(result.stats);
    if (result.status === 'success') return { ok: true, text: this.text, tokens, ...sessionId };
    const error = typeof result.error === 'object' && result.error !== null ? (result.error as Record<string, unknown>) : {};
    const message = typeof error.message === 'string' ? error.message : 'Gemini CLI reported an error';
    return { ok: false, text: this.text, tokens, ...sessionId, failure: geminiFailure(message, spawn.exitCode) };
  }
}
