import { parseJsonLine, str, type Json } from '../stream-json.js';
import { exitedWithoutResult } from '../agent-process.js';
import type { AgentOutcome, AgentStream } from '../agent-cli.js';
import { errorMessageClass } from '../error-message-class.js';
import { REACH_THE_STEP, withLoginHint } from '../login/login-hints.js';
import type { SpawnResult } from '../../process/spawn-spec.js';
import type { StreamEvent } from '../types.js';
import { NO_TOKENS } from '../../core/models/tokens.js';
import type { Failure } from '../../core/errors/failure.js';
import { cursorObjectEvents, cursorTokens } from './parse.js';

/** What to do when cursor-agent has no credentials, or had them refused: its own login, or a key the step sees. */
export const CURSOR_LOGIN_HINT = `Set an API key in CURSOR_API_KEY and ${REACH_THE_STEP}, or log in with \`cursor-agent login\`.`;

/** A Failure classed from its message and stderr (cursor-agent reports failures only as text), with the login hint when it is one. */
function cursorFailure(failure: Failure, stderr: string): Failure {
  return withLoginHint({ ...failure, class: errorMessageClass(`${failure.message}\n${stderr}`) }, CURSOR_LOGIN_HINT);
}

/**
 * Reads one attempt of `cursor-agent -p --output-format stream-json`. The run succeeded only when a `result` with
 * `is_error: false` came and the process exited 0: on failure Cursor exits non-zero with the reason on stderr, and
 * the stream may end without a result. Lines that are not JSON objects are counted, never fatal.
 */
export class CursorStream implements AgentStream {
  private result: Json | undefined;
  private sessionId: string | undefined;
  private lastText = '';
  /** Non-blank stdout lines that were not JSON objects. */
  malformedLines = 0;

  /** The events of one stdout line; never throws. */
  line(line: string): StreamEvent[] {
    const object = parseJsonLine(line);
    if (!object) {
      if (line.trim() !== '') this.malformedLines += 1;
      return [];
    }
    this.sessionId ??= str(object.session_id);
    const events = cursorObjectEvents(object);
    for (const event of events) if (event.kind === 'text') this.lastText = event.text;
    if (object.type === 'result') this.result = object;
    return events;
  }

  /** The outcome from the `result` event, the exit code and stderr. */
  finish(spawn: SpawnResult): AgentOutcome {
    const sessionId = this.sessionId ? { sessionId: this.sessionId } : {};
    const result = this.result;
    const stderr = spawn.stderrTail.trim();
    if (!result) return { ok: false, text: this.lastText, tokens: { ...NO_TOKENS }, ...sessionId, failure: cursorFailure(exitedWithoutResult(spawn, 'cursor-agent'), stderr) };
    const text = str(result.result) ?? this.lastText;
    const subtype = str(result.subtype);
    const outcome = { text, tokens: cursorTokens(result.usage) ?? { ...NO_TOKENS }, ...sessionId, ...(subtype ? { subtype } : {}) };
    if (result.is_error === false && spawn.exitCode === 0) return { ok: true, ...outcome };
    const how = spawn.exitCode === null ? `was killed by ${spawn.signal ?? 'a signal'}` : `exited with code ${spawn.exitCode}`;
    const message =
      result.is_error === false
        ? `cursor-agent ${how} after its result${stderr ? `:\n${stderr.slice(-1_000)}` : ''}`
        : str(result.result) || stderr.slice(-1_000) || `cursor-agent ended with ${subtype ?? 'an error'}`;
    const failure: Failure = { class: 'non_zero_exit', message };
    return { ok: false, ...outcome, failure: cursorFailure(failure, stderr) };
  }
}
