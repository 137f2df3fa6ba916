/** How much of an attempt's result text its `attempt_finished` event keeps: the end, where answers and test summaries are. */
export const ROUND_TEXT_CHARS = 16_000;

/** The result text an `attempt_finished` event stores: all of it, or its last ROUND_TEXT_CHARS with a note of what was cut. */
export function roundText(text: string): string {
  if (text.length <= ROUND_TEXT_CHARS) return text;
  return `[… ${text.length - ROUND_TEXT_CHARS} characters before]\n${text.slice(-ROUND_TEXT_CHARS)}`;
}

/** `{ output }` holding the fields of a step's output when it is a JSON object (a contract- or extract-checked answer), else nothing. */
export function jsonFields(output: string): { output?: Record<string, unknown> } {
  const trimmed = output.trim();
  if (!trimmed.startsWith('{')) return {};
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { output: value as Record<string, unknown> } : {};
  } catch {
    return {};
  }
}
