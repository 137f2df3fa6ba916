import { addTokens, hasTokens, NO_TOKENS } from '../../core/models/tokens.js';
import type { Paint } from '../color.js';
import { cutToWidth, displayWidth } from '../columns.js';
import { STATUS_MARK } from '../describe.js';
import { formatCost, formatDuration, formatTokens } from '../format.js';
import { itemProgress, type RunTree, type Segment, type StepView } from './run-tree.js';

/** The terminal's size, when it is known: lines are cut to its columns and the frame kept shorter than its rows. */
export interface Screen {
  columns?: number;
  rows?: number;
}

/** How child runs are drawn: with the finished ones left out (`collapse`), which a frame taller than the screen needs. */
interface Nesting {
  now: number;
  collapse: boolean;
}

/**
 * The lines of one frame of the live view at `now`: a line per step, the child runs a step started indented under it
 * (an iterate's completed items left out: its count says them), the run's footer and its notes, each cut to the
 * screen's columns. A frame that would be taller than the screen leaves out every finished child run, then the running
 * ones that do not fit.
 */
export function renderFrame(root: RunTree, now: number, paint: Paint, screen: Screen = {}): string[] {
  const footer = footerLines(root, now);
  const height = screen.rows === undefined ? Number.POSITIVE_INFINITY : Math.max(1, screen.rows - 1);
  let body = stepLines(root, 0, { now, collapse: false }, Number.POSITIVE_INFINITY);
  if (body.length + footer.length > height) body = stepLines(root, 0, { now, collapse: true }, height - footer.length - root.order.length);
  return [...body, ...footer].map((segments) => fit(segments, screen.columns, paint));
}

function footerLines(root: RunTree, now: number): Segment[][] {
  const views = [...root.steps.values()];
  const done = views.filter((s) => s.status === 'completed').length;
  const parts = [`  ${done}/${views.length} steps completed`];
  const runElapsed = root.durationMs ?? (root.startedAt !== undefined ? now - root.startedAt : undefined);
  if (runElapsed !== undefined) parts.push(formatDuration(runElapsed));
  const tokens = views.reduce((sum, s) => addTokens(sum, s.tokens), { ...NO_TOKENS });
  if (hasTokens(tokens)) parts.push(formatTokens(tokens));
  const costs = views.filter((s) => s.costUsd !== undefined);
  if (costs.length > 0) parts.push(formatCost(costs.reduce((sum, s) => sum + s.costUsd!, 0)));
  return [[{ text: parts.join(' · '), color: 'gray' }], ...(root.notes ?? []).map((note) => [{ text: '  ' }, note])];
}

/** A run's step lines at `depth`, each followed by the lines of its child runs, which take at most `room` lines in all. */
function stepLines(tree: RunTree, depth: number, nesting: Nesting, room: number): Segment[][] {
  const idWidth = Math.max(0, ...tree.order.map((id) => id.length));
  const lines: Segment[][] = [];
  let left = room;
  for (const id of tree.order) {
    const step = tree.steps.get(id)!;
    lines.push(stepSegments(id, step, { idWidth, depth, now: nesting.now }));
    const nested = childLines(step, depth + 1, nesting, left);
    left -= nested.length;
    lines.push(...nested);
  }
  return lines;
}

/**
 * The lines of a step's child runs that are shown, in at most `room` lines: an iterate item under a line naming it, a
 * single child's steps straight under the step. When they do not all fit, each child takes one line naming its running
 * steps, and those that still do not fit are counted in one `… n more running` line.
 */
function childLines(step: StepView, depth: number, nesting: Nesting, room: number): Segment[][] {
  const shown = (step.children ?? []).filter((child) => isShown(child, nesting.collapse)).sort((a, b) => (a.item ?? 0) - (b.item ?? 0));
  const full = shown.flatMap((child) => childBlock(child, depth, nesting));
  if (full.length <= room) return full;
  const fits = shown.length <= room ? shown.length : Math.max(0, room - 1);
  const lines = shown.slice(0, fits).map((child) => oneLine(child, depth));
  if (fits < shown.length && room > 0) lines.push([{ text: `${indent(depth)}… ${shown.length - fits} more running`, color: 'gray' }]);
  return lines;
}

/** A child run's lines: its steps with their own children, under a line naming it when it is an iterate item. */
function childBlock(child: RunTree, depth: number, nesting: Nesting): Segment[][] {
  if (child.item === undefined) return stepLines(child, depth, nesting, Number.POSITIVE_INFINITY);
  return [[{ text: `${indent(depth)}↳ ${childName(child)}`, color: 'gray' }], ...stepLines(child, depth + 1, nesting, Number.POSITIVE_INFINITY)];
}

/** `item 3 (review)`, or the child's pipeline. */
function childName(child: RunTree): string {
  const pipeline = child.pipeline ?? 'child run';
  return child.item !== undefined ? `item ${child.item + 1} (${pipeline})` : pipeline;
}

/** A child run in one line, when its steps do not fit: `↳ item 3 (review): ▸ lint, ▸ test`. */
function oneLine(child: RunTree, depth: number): Segment[] {
  const running = child.order.filter((id) => ['running', 'retrying'].includes(child.steps.get(id)!.status));
  const segments: Segment[] = [{ text: `${indent(depth)}↳ ${childName(child)}`, color: 'gray' }];
  running.forEach((id, index) => segments.push({ text: index ? ', ' : ': ' }, { text: STATUS_MARK.running.symbol, color: STATUS_MARK.running.color }, { text: ` ${id}` }));
  return segments;
}

/** A running child is always drawn; a finished one only while the frame has room (an iterate's only when it failed: the count says the rest). */
function isShown(child: RunTree, collapse: boolean): boolean {
  if (child.status === 'running') return true;
  return !collapse && (child.item === undefined || child.status === 'failed');
}

function indent(depth: number): string {
  return '  '.repeat(depth);
}

function stepSegments(id: string, step: StepView, at: { idWidth: number; depth: number; now: number }): Segment[] {
  const mark = STATUS_MARK[step.status];
  const segments: Segment[] = [{ text: indent(at.depth) }, { text: mark.symbol, color: mark.color }, { text: ` ${id.padEnd(at.idWidth)}` }];
  const elapsed = step.durationMs ?? (step.startedAt !== undefined ? Math.max(0, at.now - step.startedAt) : undefined);
  segments.push({ text: `  ${(elapsed === undefined ? '' : formatDuration(elapsed)).padStart(6)}` });
  if (step.attempt > 1) segments.push({ text: `  attempt ${step.attempt}`, color: 'yellow' });
  segments.push(...progressSegments(step));
  if (hasTokens(step.tokens)) segments.push({ text: `  ${formatTokens(step.tokens)}` });
  if (step.costUsd !== undefined) segments.push({ text: `  ${formatCost(step.costUsd)}` });
  if (step.activity) segments.push({ text: `  ${step.activity}`, color: 'gray' });
  if (step.note) segments.push({ text: `  ${step.note}`, color: step.status === 'failed' ? 'red' : 'gray' });
  return segments;
}

/** An iterate step's `3/7 items, 1 failed`. */
function progressSegments(step: StepView): Segment[] {
  const progress = itemProgress(step);
  if (!progress) return [];
  const segments: Segment[] = [{ text: `  ${progress.finished}/${progress.total} items` }];
  if (progress.failed) segments.push({ text: `, ${progress.failed} failed`, color: 'red' });
  if (progress.cancelled) segments.push({ text: `, ${progress.cancelled} cancelled`, color: 'yellow' });
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
