import { loopEndText, loopIterationText } from '../loop-text.js';
import type { RunEvent } from '../../events.js';
import { describeFailure, describeToolUse, oneLine } from '../describe.js';
import { formatCost, formatDuration } from '../format.js';
import { childTreeOf, stepOf, type RunTree, type RunView, type StepView } from './run-tree.js';
import { gateResolvedText, gateWaitingText } from '../gate-text.js';
import { routeText } from '../route-text.js';

/** Events about the run as a whole, drawn in the footer. */
const RUN_EVENT_TYPES = ['run_created', 'run_started', 'steps_reset', 'run_finished', 'budget_warning', 'budget_exhausted', 'token_scopes_unchecked'] as const;
type RunLevelEvent = Extract<RunEvent, { type: (typeof RUN_EVENT_TYPES)[number] }>;
type StepLevelEvent = Exclude<RunEvent, RunLevelEvent>;

function isRunLevel(event: RunEvent): event is RunLevelEvent {
  return (RUN_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** Folds one event into the tree of its run (`tree`): its steps, its child runs, its clock; run-wide notes go to `root`'s footer. */
export function applyEvent(event: RunEvent, tree: RunTree, root: RunView): void {
  if (isRunLevel(event)) applyRunEvent(event, tree, root);
  else applyStepEvent(event, tree);
}

function applyRunEvent(event: RunLevelEvent, tree: RunTree, run: RunView): void {
  switch (event.type) {
    case 'run_started':
      Object.assign(tree, { startedAt: Date.parse(event.ts), status: 'running', durationMs: undefined });
      for (const id of event.steps) stepOf(tree, id);
      return;
    case 'run_finished':
      Object.assign(tree, { durationMs: event.durationMs, status: event.status });
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

/** Folds an iterate step's item count, a loop's iteration, or the start or end of a step's child run, into the step's view. */
function applyChildEvent(event: Extract<RunEvent, { type: 'iterate_items' | 'loop_iteration' | 'loop_ended' | 'child_run_started' | 'child_run_finished' }>, tree: RunTree): void {
  const step = stepOf(tree, event.stepId);
  switch (event.type) {
    case 'loop_iteration':
      step.loop = loopIterationText({ ...event, reused: false });
      step.activity = loopIterationText(event);
      return;
    case 'loop_ended':
      step.activity = loopEndText(event);
      return;
    case 'iterate_items':
      step.items = { total: event.items, reused: event.reused };
      return;
    case 'child_run_started':
      childTreeOf(tree, event);
      // An iterate step shows its items' progress instead.
      if (event.item === undefined) step.activity = withLoop(step, activityOf(event));
      return;
    case 'child_run_finished': {
      const child = step.children?.find((c) => c.runId === event.childRunId);
      if (child) child.status = event.status;
      if (child?.item === undefined) step.activity = withLoop(step, activityOf(event));
      return;
    }
  }
}

/** A child run's activity, after the loop's iteration when the step is a loop. */
function withLoop(step: StepView, activity: string): string {
  return step.loop ? `${step.loop}: ${activity}` : activity;
}

/** Folds how a step ended into its view. */
function applyStepEnd(event: Extract<RunEvent, { type: 'step_completed' | 'step_failed' | 'step_rejected' | 'step_skipped' | 'step_cancelled' }>, step: StepView): void {
  switch (event.type) {
    case 'step_completed':
      Object.assign(step, {
        status: 'completed',
        durationMs: event.durationMs,
        tokens: { ...event.tokens },
        costUsd: event.costUsd,
        activity: undefined,
      });
      return;
    case 'step_failed':
      Object.assign(step, {
        status: 'failed',
        durationMs: event.durationMs,
        activity: undefined,
        note: `${event.optional ? '(optional) ' : ''}${describeFailure(event.failure)}`,
      });
      return;
    case 'step_rejected':
      Object.assign(step, { status: 'rejected', durationMs: event.durationMs, activity: undefined, note: `nothing to do: ${describeFailure(event.failure)}` });
      return;
    case 'step_skipped':
      Object.assign(step, { status: 'skipped', activity: undefined, note: oneLine(event.reason) });
      return;
    case 'step_cancelled': {
      Object.assign(step, { status: 'cancelled', activity: undefined });
      if (step.startedAt !== undefined && step.durationMs === undefined) step.durationMs = Math.max(0, Date.parse(event.ts) - step.startedAt);
      return;
    }
  }
}

/** A gate's wait and decision, and a route that sends the walk on (or back). */
function applyWalkEvent(event: Extract<RunEvent, { type: 'gate_waiting' | 'gate_resolved' | 'step_routed' }>, tree: RunTree): void {
  const step = stepOf(tree, event.stepId);
  switch (event.type) {
    case 'gate_waiting':
      step.activity = gateWaitingText(event, event.runId, event.stepId);
      return;
    case 'gate_resolved':
      step.activity = gateResolvedText(event);
      return;
    case 'step_routed':
      // The steps a route sends the walk back to run again: drawn waiting once more.
      for (const id of event.requeued) Object.assign(stepOf(tree, id), { status: 'pending', activity: undefined, note: undefined, durationMs: undefined });
      step.activity = routeText(event);
      return;
  }
}

function applyStepEvent(event: StepLevelEvent, tree: RunTree): void {
  const view = (id: string): StepView => stepOf(tree, id);
  switch (event.type) {
    case 'step_began': {
      // A step that runs no attempts (a child pipeline's, an iterate's) is running from here; an attempt step's step_started follows.
      const step = view(event.stepId);
      Object.assign(step, { status: 'running', activity: undefined, note: undefined, durationMs: undefined });
      step.startedAt = Date.parse(event.ts);
      return;
    }
    case 'iterate_items':
    case 'loop_iteration':
    case 'loop_ended':
    case 'child_run_started':
    case 'child_run_finished':
      return applyChildEvent(event, tree);
    case 'gate_waiting':
    case 'gate_resolved':
    case 'step_routed':
      return applyWalkEvent(event, tree);
    case 'step_started': {
      const step = view(event.stepId);
      Object.assign(step, { status: 'running', attempt: event.attempt, activity: event.reworkOf !== undefined ? `rework of ${event.reworkOf}` : undefined, note: undefined });
      step.startedAt ??= Date.parse(event.ts);
      return;
    }
    case 'step_reworking':
      Object.assign(view(event.stepId), {
        status: 'reworking',
        activity: `${event.target} fixing its work (round ${event.round}) after ${describeFailure(event.failure)}`,
      });
      return;
    case 'step_event':
      if (event.event.kind === 'tool_use') view(event.stepId).activity = describeToolUse(event.event);
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
    case 'step_output':
    case 'review_started':
    case 'review_completed':
    case 'review_failed':
      view(event.stepId).activity = activityOf(event);
      return;
    case 'step_completed':
    case 'step_failed':
    case 'step_rejected':
    case 'step_skipped':
    case 'step_cancelled':
      return applyStepEnd(event, view(event.stepId));
    case 'artifact_redacted':
      // Kept beside the step once it completes: its stored artifact differs from the workspace file.
      view(event.stepId).note = `${event.count} secret${event.count === 1 ? '' : 's'} redacted in artifact ${event.name}`;
      return;
    // Not drawn live: denied connections are counted per step, and changed files listed, in the closing summary; the
    // rest only the record keeps, and the view follows the events around them.
    case 'attempt_spawned':
    case 'attempt_interrupted':
    case 'model_request':
    case 'simulated':
    case 'replay_matched':
    case 'replay_mismatch':
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
