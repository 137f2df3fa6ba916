import type { StreamEvent } from '../adapters/types.js';
import type { Failure } from '../core/errors/failure.js';
import type { RunStatus, StepStatus } from '../events.js';
import type { ColorName } from './color.js';
import { safeLine } from '../core/terminal-safe.js';

/** The one-character mark of a step or run status, and its colour. */
export const STATUS_MARK: Record<StepStatus | RunStatus, { symbol: string; color: ColorName }> = {
  pending: { symbol: '·', color: 'gray' },
  running: { symbol: '▸', color: 'cyan' },
  retrying: { symbol: '↻', color: 'yellow' },
  reworking: { symbol: '↺', color: 'yellow' },
  completed: { symbol: '✓', color: 'green' },
  failed: { symbol: '✗', color: 'red' },
  skipped: { symbol: '-', color: 'gray' },
  cancelled: { symbol: '⊘', color: 'yellow' },
  rejected: { symbol: '!', color: 'yellow' },
};

/** A tool call as one short phrase: `Bash git status`, `Read src/a.ts`. */
export function describeToolUse(event: Extract<StreamEvent, { kind: 'tool_use' }>): string {
  return event.target ? `${event.name} ${oneLine(event.target)}` : event.name;
}

/**
 * A failure in one line: `class: first line of the message`, and when the message goes on (a command's stderr) its
 * last line, which is where tools say what went wrong: `non_zero_exit: \`make\` exited with code 2: No rule to make target`.
 */
export function describeFailure(failure: Failure): string {
  const lines = meaningfulLines(failure.message);
  const first = lines[0] ?? '';
  const last = lines.length > 1 ? lines[lines.length - 1]! : undefined;
  return `${failure.class}: ${oneLine(last === undefined ? first : `${first.replace(/:\s*$/, '')}: ${last.trim()}`)}`;
}

function meaningfulLines(text: string): string[] {
  return text
    .trim()
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
}

/**
 * A failure as lines: `class: first line`, the rest of its message (its last `maxLines` lines, each cut to one
 * screen line: a command's stderr), and its hint.
 */
export function failureDetail(failure: Failure, maxLines = 20): string[] {
  const [first = '', ...more] = meaningfulLines(failure.message);
  const rest = more.slice(-maxLines).map((line) => cut(safeLine(line.trimEnd()), 200));
  if (failure.hint) rest.push(`hint: ${failure.hint}`);
  return [`${failure.class}: ${oneLine(first)}`, ...rest];
}

/** The first line of a text, shortened to `max` characters, its control characters shown escaped. */
export function oneLine(text: string, max = 200): string {
  return cut(safeLine(text.trim().split(/\r?\n/, 1)[0] ?? ''), max);
}

function cut(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
