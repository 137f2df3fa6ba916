import { addTokens, hasTokens, NO_TOKENS } from '../../core/models/tokens.js';
import type { Paint } from '../color.js';
import { cutToWidth, displayWidth } from '../columns.js';
import { STATUS_MARK } from '../describe.js';
import { formatCost, formatDuration, formatTokens } from '../format.js';
import type { Segment, StepView, TerminalView } from './terminal-view.js';

/** The lines of one frame of the live view at `now`: a line per step, the run's footer and its notes, each cut to `columns`. */
export function renderFrame({ order, steps, run }: TerminalView, now: number, paint: Paint, columns: number | undefined): string[] {
  const idWidth = Math.max(0, ...order.map((id) => id.length));
  const lines = order.map((id) => fit(stepSegments(id, steps.get(id)!, idWidth, now), columns, paint));
  const views = [...steps.values()];
  const done = views.filter((s) => s.status === 'completed').length;
  const parts = [`  ${done}/${views.length} steps completed`];
  const runElapsed = run.durationMs ?? (run.startedAt !== undefined ? now - run.startedAt : undefined);
  if (runElapsed !== undefined) parts.push(formatDuration(runElapsed));
  const tokens = views.reduce((sum, s) => addTokens(sum, s.tokens), { ...NO_TOKENS });
  if (hasTokens(tokens)) parts.push(formatTokens(tokens));
  const costs = views.filter((s) => s.costUsd !== undefined);
  if (costs.length > 0) parts.push(formatCost(costs.reduce((sum, s) => sum + s.costUsd!, 0)));
  const footer: Segment[] = [{ text: parts.join(' · '), color: 'gray' }];
  lines.push(fit(footer, columns, paint));
  for (const note of run.notes ?? []) lines.push(fit([{ text: '  ' }, note], columns, paint));
  return lines;
}

function stepSegments(id: string, step: StepView, idWidth: number, now: number): Segment[] {
  const mark = STATUS_MARK[step.status];
  const segments: Segment[] = [{ text: mark.symbol, color: mark.color }, { text: ` ${id.padEnd(idWidth)}` }];
  const elapsed = step.durationMs ?? (step.startedAt !== undefined ? Math.max(0, now - step.startedAt) : undefined);
  segments.push({ text: `  ${(elapsed === undefined ? '' : formatDuration(elapsed)).padStart(6)}` });
  if (step.attempt > 1) segments.push({ text: `  attempt ${step.attempt}`, color: 'yellow' });
  if (hasTokens(step.tokens)) segments.push({ text: `  ${formatTokens(step.tokens)}` });
  if (step.costUsd !== undefined) segments.push({ text: `  ${formatCost(step.costUsd)}` });
  if (step.activity) segments.push({ text: `  ${step.activity}`, color: 'gray' });
  if (step.note) segments.push({ text: `  ${step.note}`, color: step.status === 'failed' ? 'red' : 'gray' });
  return segments;
}

/** Cuts a line to the terminal width (a wrapped line would break the cursor arithmetic), then colours it. */
function fit(segments: Segment[], columns: number | undefined, paint: Paint): string {
  let room = columns === undefined ? Number.POSITIVE_INFINITY : Math.max(10, columns - 1);
  let line = '';
  for (const segment of segments) {
    if (room <= 0) break;
    const text = cutToWidth(segment.text, room);
    room -= displayWidth(text);
    line += segment.color ? paint(segment.color, text) : text;
  }
  return line.trimEnd();
}
