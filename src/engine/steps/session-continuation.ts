import type { AdapterRegistry } from '../../adapters/registry.js';
import { isSafeSessionId } from '../../adapters/session.js';
import type { AdapterResult, ContinueFrom } from '../../adapters/types.js';
import type { ResolvedAdapter } from '../../core/resolved-adapter.js';
import { addTokens, NO_TOKENS, type TokenUsage } from '../../core/models/tokens.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import { promptWithFeedback } from './retry-prompt.js';

/** How one attempt starts: its prompt, and the session it continues or why a retry starts a fresh one. */
export interface AttemptStart {
  prompt: string;
  continueFrom?: ContinueFrom;
  /** The attempt whose session this one continues. */
  continuedFrom?: number;
  /** Why a retry that could have continued its session starts a fresh one (the session_fresh event says it). */
  freshReason?: string;
}

/** What an attempt leaves the next one. */
interface EndedAttempt {
  attempt: number;
  adapter: string;
  attemptDir: string;
  sessionId?: string;
  /** What the session used up to the end of this attempt: its own tokens plus those of the attempts it continued. */
  sessionTokens: TokenUsage;
  /** What the session cost up to the end of this attempt, when its CLI reports costs. */
  sessionCostUsd?: number;
  /** The session this attempt was to continue and why its CLI refused to resume it. */
  refused?: { sessionId: string; why: string };
  /** Why the CLI kept nothing of `sessionId` that it could resume. */
  notSaved?: string;
}

/**
 * The sessions of one step's attempts (retry.continue_session): a retry of a prompt step continues the session
 * its previous attempt left on the same adapter, sent only the feedback; otherwise it starts fresh with the
 * original prompt and the feedback, and says why when it could have continued.
 */
export class StepSessions {
  private last: EndedAttempt | undefined;

  constructor(
    private readonly step: AttemptStep,
    private readonly registry: AdapterRegistry,
  ) {}

  /**
   * How the next attempt starts on `adapter`. `feedback` is what the step was told of the last failure (undefined
   * for a first attempt, a fallback, or adapt_prompt: false).
   */
  start(adapter: ResolvedAdapter, original: string, feedback: string | undefined): AttemptStart {
    const fresh = feedback === undefined ? original : promptWithFeedback(original, feedback);
    const last = this.last;
    if (!last || this.step.kind !== 'agent' || !this.step.retry.continueSession || !this.resumes(adapter)) return { prompt: fresh };
    const reason = freshReason(last, adapter, feedback);
    if (reason !== undefined) return { prompt: fresh, freshReason: reason };
    // freshReason has ruled these out; the checks narrow the types.
    if (feedback === undefined || !isSafeSessionId(last.sessionId)) return { prompt: fresh };
    return {
      prompt: feedback,
      continueFrom: {
        sessionId: last.sessionId,
        previousAttemptDir: last.attemptDir,
        sessionTokens: last.sessionTokens,
        ...(last.sessionCostUsd !== undefined ? { sessionCostUsd: last.sessionCostUsd } : {}),
      },
      continuedFrom: last.attempt,
    };
  }

  /** Whether the adapter's runner reports sessions and resumes them (the agent CLIs; not a plain HTTP model). */
  private resumes(adapter: ResolvedAdapter): boolean {
    try {
      return this.registry.resolve(adapter.type).continuesSessions === true;
    } catch {
      return false; // No runner: the attempt itself reports that.
    }
  }

  /** Keeps what an attempt left: its session and what that session has used so far. */
  ended(attempt: number, adapter: ResolvedAdapter, attemptDir: string, start: AttemptStart, result: AdapterResult): void {
    const continued = start.continueFrom && result.sessionId === start.continueFrom.sessionId ? start.continueFrom : undefined;
    const before = continued?.sessionTokens ?? NO_TOKENS;
    const costBefore = continued?.sessionCostUsd ?? 0;
    this.last = {
      attempt,
      adapter: adapter.name,
      attemptDir,
      ...(result.sessionId !== undefined ? { sessionId: result.sessionId } : {}),
      sessionTokens: addTokens(before, result.tokens),
      ...(result.costUsd !== undefined ? { sessionCostUsd: costBefore + result.costUsd } : {}),
      ...(start.continueFrom && result.resumeRefused !== undefined ? { refused: { sessionId: start.continueFrom.sessionId, why: result.resumeRefused } } : {}),
      ...(result.sessionNotSaved !== undefined ? { notSaved: result.sessionNotSaved } : {}),
    };
  }
}

/** Why a retry cannot continue the session `last` left, or undefined when it can. */
function freshReason(last: EndedAttempt, adapter: ResolvedAdapter, feedback: string | undefined): string | undefined {
  const from = `attempt ${last.attempt}`;
  if (last.refused) return `${from} could not resume session ${last.refused.sessionId}: ${last.refused.why}`;
  if (last.adapter !== adapter.name) return `${from} ran on adapter ${last.adapter}, this one on ${adapter.name}`;
  if (feedback === undefined) return 'retry.adapt_prompt is false, so the retry starts over with the original prompt';
  if (last.sessionId === undefined) return `${from} reported no session id`;
  if (!isSafeSessionId(last.sessionId)) return `${from} reported a session id that is not a plain token`;
  // Offering it would cost a launch the CLI refuses, and an attempt beyond the retry policy's count.
  if (last.notSaved !== undefined) return `${from}'s session ${last.sessionId} was not saved: ${last.notSaved}`;
  return undefined;
}
