import { stripVTControlCharacters } from 'node:util';

/** Lines of a step's result the run summary shows at most. */
export const RESULT_LINES = 6;
/** Characters of a step's result the run summary shows at most, over all its lines. */
export const RESULT_CHARS = 400;
/** A shown line is cut here, so one long line cannot take the whole budget. */
const LINE_CHARS = 160;

/** What a step's result looks like in brief: the summary, `wave status` and the job summary show these lines. */
export interface StepResult {
  /** `answer`: an agent's final answer, from its start; `output`: a command's output, its last lines; `fields`: a JSON output's top-level fields, one a line. */
  kind: 'answer' | 'output' | 'fields';
  lines: string[];
  /** How many lines (or fields) the whole result has, blank lines left out. */
  total: number;
  /** Something was left out: lines, fields, or the end of a long line. */
  cut: boolean;
}

/** The brief of an attempt's result: its JSON output's fields when it has them, else its text; undefined when there is nothing to show. */
export function stepResult(execType: 'prompt' | 'command', text: string, fields?: Record<string, unknown>): StepResult | undefined {
  if (fields && Object.keys(fields).length)
    return brief(
      'fields',
      Object.entries(fields).map(([key, value]) => `${key}: ${fieldValue(value)}`),
    );
  const lines = text
    .split(/\r?\n/)
    .map((line) => stripVTControlCharacters(line).trimEnd())
    .filter((line) => line.trim() !== '');
  if (!lines.length) return undefined;
  // A command's verdict is at the end of its output (a test summary, a count); an agent's answer leads with its point.
  if (execType !== 'command') return brief('answer', lines);
  const last = brief('output', lines.reverse());
  return { ...last, lines: last.lines.reverse() };
}

/** The first RESULT_LINES lines within RESULT_CHARS characters, each cut to LINE_CHARS. */
function brief(kind: StepResult['kind'], all: string[]): StepResult {
  const lines: string[] = [];
  let room = RESULT_CHARS;
  let cut = all.length > RESULT_LINES;
  for (const line of all.slice(0, RESULT_LINES)) {
    if (room <= 0) {
      cut = true;
      break;
    }
    const max = Math.min(LINE_CHARS, room);
    const shown = line.length > max ? `${line.slice(0, max - 1)}…` : line;
    if (shown !== line) cut = true;
    lines.push(shown);
    room -= shown.length;
  }
  return { kind, lines, total: all.length, cut };
}

/** A field's value in one line: a string as it is, anything else as compact JSON. */
function fieldValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return stripVTControlCharacters(text).replace(/\s*\r?\n\s*/g, ' ');
}
