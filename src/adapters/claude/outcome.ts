import { num, parseJsonLine, str, type Json } from '../stream-json.js';
import { exitedWithoutResult } from '../agent-process.js';
import type { AgentOutcome, AgentStream } from '../agent-cli.js';
import { httpStatusClass } from '../../core/http-status.js';
import type { SpawnResult } from '../../process/spawn-spec.js';
import type { StreamEvent } from '../types.js';
import { NO_TOKENS } from '../../core/models/tokens.js';
import type { Failure } from '../../core/errors/failure.js';
import type { FailureClass } from '../../core/errors/error-codes.js';
import { REACH_THE_STEP } from '../login/login-hints.js';
import { ClaudeMessageUsage, claudeObjectEvents, claudeTokens } from './parse.js';
import { costOfAttempt } from '../session.js';

/** What to do when Claude Code has no credentials, or had them refused: its own login, or a key the step sees. */
export const CLAUDE_LOGIN_HINT = `Run \`claude\` and log in with /login (or \`claude auth login\`), or set a valid API key in ANTHROPIC_API_KEY and ${REACH_THE_STEP}.`;

/** Subtypes and terminal reasons that name their own failure class. */
const REASON_CLASSES: Record<string, Failure['class']> = {
  error_max_turns: 'max_turns',
  max_turns: 'max_turns',
  error_max_budget_usd: 'budget_exhausted',
  budget_exhausted: 'budget_exhausted',
  prompt_too_long: 'context_exhausted',
};

/** The message of a failed result: its errors, else its text, else the API error seen in the stream. */
function failureMessage(result: Json, apiError: string | undefined): string {
  const errors = Array.isArray(result.errors) ? result.errors.filter((e): e is string => typeof e === 'string') : [];
  return errors.join('; ') || str(result.result) || apiError || `Claude Code ended with ${str(result.subtype) ?? 'an error'}`;
}

/** The API error the stream reported before the result: its text, and the class its error code names, if any. */
export interface ClaudeApiError {
  message: string;
  failureClass?: FailureClass;
}

/**
 * The Failure of a Claude `result` event, or undefined when it succeeded. The success rule is
 * `is_error === false`: API errors arrive as subtype "success" with is_error true. A refusal without an HTTP status
 * ("Not logged in") is classed by the error code of the message that reported it.
 */
export function claudeFailure(result: Json, lastRetryDelayMs?: number, apiError?: ClaudeApiError): Failure | undefined {
  if (result.is_error === false) return undefined;
  const message = failureMessage(result, apiError?.message);
  const status = num(result.api_error_status);
  const byStatus = httpStatusClass(status) ?? apiError?.failureClass;
  if (byStatus === 'rate_limited') return { class: byStatus, message, ...(lastRetryDelayMs !== undefined ? { retryAfterMs: lastRetryDelayMs } : {}) };
  if (byStatus === 'auth_failed') return { class: byStatus, message, hint: CLAUDE_LOGIN_HINT };
  if (byStatus) return { class: byStatus, message };
  const reason = REASON_CLASSES[str(result.subtype) ?? ''] ?? REASON_CLASSES[str(result.terminal_reason) ?? ''];
  return { class: reason ?? 'non_zero_exit', message };
}

/** Reads one attempt's `stream-json` lines and keeps what the outcome needs. */
export class ClaudeStream implements AgentStream {
  private result: Json | undefined;
  private sessionId: string | undefined;
  private lastRetryDelayMs: number | undefined;
  private lastError: ClaudeApiError | undefined;
  private lastText = '';
  private readonly usage = new ClaudeMessageUsage();

  /** `sessionCostUsd`: what the session a resumed attempt continues had cost, which Claude's figures include. */
  constructor(private readonly sessionCostUsd?: number) {}

  /** The events of one stdout line; never throws. */
  line(line: string): StreamEvent[] {
    const object = parseJsonLine(line);
    if (!object) return [];
    this.sessionId ??= str(object.session_id);
    const events = claudeObjectEvents(object);
    // The type is read once: the stream's objects come in many shapes, and each read of a field is a lookup.
    const type = object.type;
    if (type === 'assistant') {
      const usage = this.usage.event(object);
      if (usage) events.push(usage);
    } else if (type === 'result') this.result = object;
    for (let i = 0; i < events.length; i++) events[i] = this.noted(events[i]!);
    return events;
  }

  /** Keeps what the outcome needs from one event, and gives it back with the attempt's own cost. */
  private noted(event: StreamEvent): StreamEvent {
    if (event.kind === 'text') this.lastText = event.text;
    else if (event.kind === 'retry' && event.delayMs !== undefined) this.lastRetryDelayMs = event.delayMs;
    else if (event.kind === 'error') this.lastError = { message: event.message, ...(event.failureClass ? { failureClass: event.failureClass } : {}) };
    else if (event.kind === 'result' && event.costUsd !== undefined) return { ...event, costUsd: costOfAttempt(event.costUsd, this.sessionCostUsd) };
    return event;
  }

  /** The outcome from the `result` event; a process that ended without one failed. */
  finish(spawn: SpawnResult): AgentOutcome {
    const result = this.result;
    const sessionId = this.sessionId ? { sessionId: this.sessionId } : {};
    if (!result) return { ok: false, text: this.lastText, tokens: { ...NO_TOKENS }, ...sessionId, failure: exitedWithoutResult(spawn, 'Claude Code') };
    const failure = claudeFailure(result, this.lastRetryDelayMs, this.lastError);
    const total = num(result.total_cost_usd);
    const costUsd = total === undefined ? undefined : costOfAttempt(total, this.sessionCostUsd);
    const subtype = str(result.subtype);
    return {
      ok: failure === undefined,
      text: str(result.result) ?? this.lastText,
      tokens: claudeTokens(result.usage),
      ...sessionId,
      ...(costUsd !== undefined ? { costUsd } : {}),
      ...(subtype ? { subtype } : {}),
      ...(failure ? { failure } : {}),
    };
  }
}
