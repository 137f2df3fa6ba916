import type { StreamEvent } from '../adapters/types.js';
import type { Failure } from '../core/failure.js';
import type { RunStatus, StepStatus } from '../events.js';
import type { ColorName } from './color.js';
import { safeLine } from '../core/terminal-safe.js';

/** The one-character mark of a step or run status, and its colour. */
export const STATUS_MARK: Record<StepStatus | RunStatus, { symbol: string; color: ColorName }> = {
  pending: { symbol: '·', color: 'gray' },
  running: { symbol: '▸', color: 'cyan' },
  retrying: { symbol: '↻', color: 'yellow' },
  completed: { symbol: '✓', color: 'green' },
  failed: { symbol: '✗', color: 'red' },
  skipped: { symbol: '-', color: 'gray' },
  cancelled: { symbol: '⊘', color: 'yellow' },
};

/** A tool call as one short phrase: `Bash git status`, `Read src/a.ts`. */
export function describeToolUse(event: Extract<StreamEvent, { kind: 'tool_use' }>): string {
  return event.target ? `${event.name} ${oneLine(event.target)}` : event.name;
}

/** A failure as `class: first line of the message`. */
export function describeFailure(failure: Failure): string {
  return `${failure.class}: ${oneLine(failure.message)}`;
}

/** The first line of a text, shortened to `max` characters, its control characters shown escaped. */
export function oneLine(text: string, max = 200): string {
  const first = safeLine(text.trim().split(/\r?\n/, 1)[0] ?? '');
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}
