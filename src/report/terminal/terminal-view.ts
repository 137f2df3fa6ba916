import { NO_TOKENS, type TokenUsage } from '../../core/models/tokens.js';
import type { RunEvent, StepStatus } from '../../events.js';
import type { ColorName } from '../color.js';
import { describeFailure, describeToolUse, oneLine } from '../describe.js';
import { formatCost, formatDuration } from '../format.js';

/** One step as the live view shows it. */
export interface StepView {
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
export interface RunView {
  startedAt?: number;
  durationMs?: number;
  notes?: Segment[];
}

/** A piece of a drawn line, in its colour. */
export interface Segment {
  text: string;
  color?: ColorName;
}

/** What a frame draws: the steps in the order they are drawn, each one's view, and the run's. */
export interface TerminalView {
  order: readonly string[];
  steps: ReadonlyMap<string, StepView>;
  run: RunView;
}

/** A step that has not started yet. */
export function pendingView(): StepView {
  return { status: 'pending', attempt: 0, tokens: { ...NO_TOKENS } };
}

/** Events about the run as a whole, drawn in the footer. */
const RUN_EVENT_TYPES = ['run_created', 'run_started', 'steps_reset', 'run_finished', 'budget_warning', 'budget_exhausted', 'token_scopes_unchecked'] as const;
type RunLevelEvent = Extract<RunEvent, { type: (typeof RUN_EVENT_TYPES)[number] }>;
type StepLevelEvent = Exclude<RunEvent, RunLevelEvent>;

function isRunLevel(event: RunEvent): event is RunLevelEvent {
  return (RUN_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** Folds one event into the view of its step (or of the run). */
export function applyEvent(event: RunEvent, view: (id: string) => StepView, run: RunView): void {
  if (isRunLevel(event)) applyRunEvent(event, view, run);
  else applyStepEvent(event, view);
}

function applyRunEvent(event: RunLevelEvent, view: (id: string) => StepView, run: RunView): void {
  switch (event.type) {
    case 'run_started':
      run.startedAt = Date.parse(event.ts);
      for (const id of event.steps) view(id);
      return;
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
    // What only the record keeps: the view follows the events around them.
    case 'run_created':
    case 'steps_reset':
      return;
  }
}

/** What a running step is doing, as an event of these types says it. */
function activityOf(
  event: Extract<
    RunEvent,
    {
      type:
        | 'step_fallback'
        | 'session_continued'
        | 'session_fresh'
        | 'child_run_started'
        | 'child_run_finished'
        | 'step_output'
        | 'review_started'
        | 'review_completed'
        | 'review_failed';
    }
  >,
): string {
  switch (event.type) {
    case 'review_started':
      return `review by ${event.reviewer}`;
    case 'review_completed':
      return `review by ${event.reviewer}: ${event.verdict}, ${event.issues} issue${event.issues === 1 ? '' : 's'}`;
    case 'review_failed':
      return `review by ${event.reviewer} failed: ${oneLine(event.reason)}`;
    case 'step_output':
      return oneLine(event.line);
    case 'step_fallback':
      return `falling back to ${event.to} (${event.failure.class})`;
    case 'session_continued':
      return `continuing session ${event.sessionId}`;
    case 'session_fresh':
      return `starting a fresh session: ${oneLine(event.reason)}`;
    case 'child_run_started':
      return `child run ${event.childRunId} (${event.pipeline})`;
    case 'child_run_finished':
      return `child run ${event.childRunId} ${event.status}`;
  }
}

function applyStepEvent(event: StepLevelEvent, view: (id: string) => StepView): void {
  switch (event.type) {
    case 'step_started': {
      const step = view(event.stepId);
      Object.assign(step, { status: 'running', attempt: event.attempt, activity: undefined, note: undefined });
      step.startedAt ??= Date.parse(event.ts);
      return;
    }
    case 'step_event': {
      const step = view(event.stepId);
      const e = event.event;
      if (e.kind === 'tool_use') step.activity = describeToolUse(e);
      return;
    }
    // What only the record keeps: the view follows the events around them.
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
    case 'session_continued':
    case 'session_fresh':
    case 'child_run_started':
    case 'child_run_finished':
    case 'step_output':
    case 'review_started':
    case 'review_completed':
    case 'review_failed':
      view(event.stepId).activity = activityOf(event);
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
      if (step.startedAt !== undefined && step.durationMs === undefined) step.durationMs = Math.max(0, Date.parse(event.ts) - step.startedAt);
      return;
    }
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
