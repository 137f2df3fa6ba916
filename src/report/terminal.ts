import { addTokens, hasTokens, NO_TOKENS, type TokenUsage } from '../core/tokens.js';
import type { RunEvent, StepStatus } from '../events.js';
import { painter, shouldColor, type ColorName, type Paint } from './color.js';
import { cutToWidth, displayWidth } from './columns.js';
import { STATUS_MARK, describeFailure, describeToolUse, oneLine } from './describe.js';
import { formatCost, formatDuration, formatTokens } from './format.js';
import type { RunSink, SinkOptions } from './sink-types.js';
import { formatSummary } from './summary.js';
import { safeValues } from './safe-values.js';

export interface TerminalSinkOptions extends SinkOptions {
  /** The clock elapsed times tick against (tests pass a fake one). */
  now?: () => number;
  /** Time between redraws; 100 ms keeps it at ten frames a second at most. */
  frameMs?: number;
}

interface StepView {
  status: StepStatus;
  startedAt?: number;
  durationMs?: number;
  attempt: number;
  tokens: TokenUsage;
  costUsd?: number;
  /** The latest tool activity, or what the step is waiting for. */
  activity?: string;
  /** Why a step failed or was skipped. */
  note?: string;
}

/** The run as the footer shows it: its clock, and run-wide notes (a budget warning, an unchecked token). */
interface RunView {
  startedAt?: number;
  durationMs?: number;
  notes?: Segment[];
}

interface Segment {
  text: string;
  color?: ColorName;
}

/** The live view on a TTY: one line per step, redrawn in place at most every frameMs. */
export function createTerminalSink(options: TerminalSinkOptions): RunSink {
  const now = options.now ?? Date.now;
  const color = options.color ?? shouldColor(options.out);
  const paint = painter(color);
  const order = [...options.stepIds];
  const steps = new Map<string, StepView>(order.map((id) => [id, pendingView()]));
  const run: RunView = {};
  let timer: NodeJS.Timeout | undefined;
  let drawnLines = 0;
  let lastFrame = '';
  let closed = false;

  const view = (id: string): StepView => {
    let step = steps.get(id);
    if (!step) {
      step = pendingView();
      steps.set(id, step);
      order.push(id);
    }
    return step;
  };

  const draw = (): void => {
    const lines = renderFrame(order, steps, run, now(), paint, columnsOf(options.out));
    const frame = lines.join('\n');
    if (frame === lastFrame) return;
    // Back to the frame's first line, then overwrite each line in place.
    const up = drawnLines > 0 ? `\r\x1b[${drawnLines}A` : '';
    options.out.write(`${up}${lines.map((line) => `\x1b[2K${line}\n`).join('')}`);
    drawnLines = lines.length;
    lastFrame = frame;
  };

  return {
    handle(event) {
      if (closed) return;
      applyEvent(safeValues(event), view, run);
      timer ??= setInterval(draw, options.frameMs ?? 100).unref();
    },
    summarize(record, runDir) {
      options.out.write(`\n${formatSummary(record, runDir, { color, cwd: options.cwd })}`);
    },
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      draw();
    },
  };
}

function pendingView(): StepView {
  return { status: 'pending', attempt: 0, tokens: { ...NO_TOKENS } };
}

/** Folds one event into the view of its step (or of the run). */
function applyEvent(event: RunEvent, view: (id: string) => StepView, run: RunView): void {
  const at = Date.parse(event.ts);
  switch (event.type) {
    case 'run_started':
      run.startedAt = at;
      for (const id of event.steps) view(id);
      return;
    case 'step_started': {
      const step = view(event.stepId);
      Object.assign(step, { status: 'running', attempt: event.attempt, activity: undefined, note: undefined });
      step.startedAt ??= at;
      return;
    }
    case 'step_event': {
      const step = view(event.stepId);
      const e = event.event;
      if (e.kind === 'tool_use') step.activity = describeToolUse(e);
      return;
    }
    // What only the record keeps: the view follows the events around them.
    case 'run_created':
    case 'steps_reset':
    case 'step_began':
    case 'attempt_spawned':
    case 'attempt_interrupted':
    case 'model_request':
      return;
    // The executor sums the stream's usage into the step's running totals; the view only shows them.
    case 'step_tokens':
      Object.assign(view(event.stepId), { tokens: { ...event.tokens }, costUsd: event.costUsd });
      return;
    case 'step_retrying':
      Object.assign(view(event.stepId), {
        status: 'retrying',
        activity: `retry in ${formatDuration(event.delayMs)} after ${describeFailure(event.failure)}`,
      });
      return;
    case 'step_fallback':
      view(event.stepId).activity = `falling back to ${event.to} (${event.failure.class})`;
      return;
    case 'session_continued':
      view(event.stepId).activity = `continuing session ${event.sessionId}`;
      return;
    case 'session_fresh':
      view(event.stepId).activity = `starting a fresh session: ${oneLine(event.reason)}`;
      return;
    case 'step_completed':
      Object.assign(view(event.stepId), {
        status: 'completed',
        durationMs: event.durationMs,
        tokens: { ...event.tokens },
        costUsd: event.costUsd,
        activity: undefined,
      });
      return;
    case 'step_failed':
      Object.assign(view(event.stepId), {
        status: 'failed',
        durationMs: event.durationMs,
        activity: undefined,
        note: `${event.optional ? '(optional) ' : ''}${describeFailure(event.failure)}`,
      });
      return;
    case 'step_skipped':
      Object.assign(view(event.stepId), { status: 'skipped', activity: undefined, note: oneLine(event.reason) });
      return;
    case 'step_cancelled': {
      const step = view(event.stepId);
      Object.assign(step, { status: 'cancelled', activity: undefined });
      if (step.startedAt !== undefined && step.durationMs === undefined) step.durationMs = Math.max(0, at - step.startedAt);
      return;
    }
    case 'run_finished':
      run.durationMs = event.durationMs;
      return;
    case 'budget_warning':
      run.notes = [...(run.notes ?? []), { text: `budget warning: ${formatCost(event.spentUsd)} spent, warn_at ${formatCost(event.warnAtUsd)}`, color: 'yellow' }];
      return;
    case 'budget_exhausted':
      run.notes = [...(run.notes ?? []), { text: `budget exhausted: ${formatCost(event.spentUsd)} spent, budget_ceiling ${formatCost(event.ceilingUsd)}`, color: 'red' }];
      return;
    case 'token_scopes_unchecked':
      run.notes = [...(run.notes ?? []), { text: `token scopes of ${event.persona} not checked`, color: 'yellow' }];
      return;
    case 'artifact_redacted':
      // Kept beside the step once it completes: its stored artifact differs from the workspace file.
      view(event.stepId).note = `${event.count} secret${event.count === 1 ? '' : 's'} redacted in artifact ${event.name}`;
      return;
    // Not drawn live: denied connections are counted per step, and changed files listed, in the closing summary.
    case 'mount_subset':
    case 'egress':
    case 'file_change':
    case 'artifact_saved':
    case 'contract_checked':
    case 'attempt_finished':
    case 'thread_context':
    case 'step_outcomes': // listed in the closing summary, under their step and after the steps
    case 'run_outputs':
      return;
  }
}

function renderFrame(order: string[], steps: Map<string, StepView>, run: RunView, now: number, paint: Paint, columns: number | undefined): string[] {
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

function columnsOf(out: SinkOptions['out']): number | undefined {
  const columns = (out as NodeJS.WriteStream).columns;
  return typeof columns === 'number' && columns > 0 ? columns : undefined;
}
