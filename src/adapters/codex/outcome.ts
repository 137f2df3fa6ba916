import { parseJsonLine } from '../../stream/lines.js';
import { exitedWithoutResult } from '../agent-process.js';
import type { AgentOutcome, AgentStream } from '../agent-cli.js';
import type { SpawnResult } from '../../process/spawn-spec.js';
import type { StreamEvent } from '../types.js';
import { NO_TOKENS, type TokenUsage } from '../../core/models/tokens.js';
import type { Failure } from '../../core/errors/failure.js';
import { CodexEventReader, codexErrorClass } from './parse.js';
import { usageOfAttempt } from '../session.js';
import { REACH_THE_STEP, withLoginHint } from '../login/login-hints.js';

/** What to do when Codex has no credentials, or had them refused: its own login, or a key the step sees. */
export const CODEX_LOGIN_HINT = `Log in with \`codex login\` (for an API key: \`printenv OPENAI_API_KEY | codex login --with-api-key\`), or set an API key in CODEX_API_KEY and ${REACH_THE_STEP}.`;

/**
 * Reads one attempt of `codex exec --json`. Success is `turn.completed`; `turn.failed` (or an exit without
 * either) is a failure. Usage is cumulative over the thread, so the last turn's figures are the totals, less
 * `sessionTokens`, what the thread used in the earlier attempts a resumed attempt continues.
 */
export class CodexStream implements AgentStream {
  private readonly reader = new CodexEventReader();
  private tokens: TokenUsage = { ...NO_TOKENS };
  private sessionId: string | undefined;
  private lastText = '';
  private completed = false;
  private failure: Failure | undefined;
  private lastError: string | undefined;

  constructor(private readonly sessionTokens?: TokenUsage) {}

  /** The events of one stdout line; never throws. */
  line(line: string): StreamEvent[] {
    const object = parseJsonLine(line);
    if (!object) return [];
    const events = this.reader.events(object).map((event) => (event.kind === 'usage' ? { ...event, tokens: usageOfAttempt(event.tokens, this.sessionTokens) } : event));
    for (const event of events) {
      if (event.kind === 'system' && event.sessionId) this.sessionId = event.sessionId;
      if (event.kind === 'text') this.lastText = event.text;
      if (event.kind === 'usage') this.tokens = event.tokens;
      if (event.kind === 'error') this.lastError = event.message;
    }
    if (object.type === 'turn.completed') this.completed = true;
    if (object.type === 'turn.failed') {
      const message = events[0]?.kind === 'error' ? events[0].message : 'the turn failed';
      this.failure = withLoginHint({ class: codexErrorClass(message), message }, CODEX_LOGIN_HINT);
    }
    return events;
  }

  /** The outcome from the terminal turn event and the exit code. */
  finish(spawn: SpawnResult): AgentOutcome {
    let failure = this.failure;
    if (!failure && !(this.completed && spawn.exitCode === 0)) {
      failure = this.lastError ? withLoginHint({ class: codexErrorClass(this.lastError), message: this.lastError }, CODEX_LOGIN_HINT) : exitedWithoutResult(spawn, 'Codex');
    }
    return { ok: failure === undefined, text: this.lastText, tokens: this.tokens, ...(this.sessionId ? { sessionId: this.sessionId } : {}), ...(failure ? { failure } : {}) };
  }
}
