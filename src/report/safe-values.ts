import { safeText } from '../core/terminal-safe.js';
import { redactValues } from '../state/redact-values.js';

const TERMINAL_SAFE = { redact: safeText };

/** A copy of an event or a record whose every string is safe for a text view (safeText); its keys are Wave's. The data stays exact in events.ndjson, run.json and --json. */
export function safeValues<T>(value: T): T {
  return redactValues(value, TERMINAL_SAFE);
}
