import type { Failure } from '../core/errors/failure.js';
import type { RunEvent } from '../events.js';
import { describeToolUse, failureDetail, oneLine } from './describe.js';
import { formatBytes, formatClock, formatCost, formatDuration, formatTokens } from './format.js';
import { hasTokens } from '../core/models/tokens.js';
import type { RunSink, SinkOptions } from './sink-types.js';
import { describeFileChange } from './file-changes.js';
import { describeSubset } from './mount-subset.js';
import { describeOutcome, describeOutput } from './deliverables.js';
import { formatSummary } from './summary.js';
import { loopEndText, loopIterationText } from './loop-text.js';
import { gateResolvedText, gateWaitingText } from './gate-text.js';
import { routeText } from './route-text.js';
import { safeValues } from './safe-values.js';
import { RunFamily } from './run-family.js';

/** Plain timestamped lines, one per meaningful event, no ANSI: for logs, CI and pipes; a child run's lines start with which child it is. */
export function createTextSink(options: SinkOptions): RunSink {
  const width = Math.max(0, ...options.stepIds.map((id) => id.length));
  const write = (ts: string, text: string) => options.out.write(`${formatClock(ts)} ${text}\n`);
  const step = (id: string) => id.padEnd(width);
  const family = new RunFamily();

  return {
    handle(raw) {
      const event = safeValues(raw);
      if (!family.accept(event)) return;
      const child = family.child(event.runId);
      // A child's step ids are not among the run's: its lines are marked instead of aligned.
      const text = describeEvent(event, child ? (id) => id : step);
      if (text !== undefined) write(event.ts, child ? `[${child.label}] ${text}` : text);
    },
    summarize(record, runDir) {
      options.out.write(`\n${formatSummary(record, runDir, { color: false, cwd: options.cwd })}`);
    },
    close() {},
  };
}

/** The text sink's line for an event, or undefined for events it leaves out (text, thinking, usage). */
export function describeEvent(event: RunEvent, step: (id: string) => string): string | undefined {
  if (isCompositionEvent(event)) return describeCompositionEvent(event, step);
  switch (event.type) {
    case 'run_started':
      return `run ${event.runId} ${event.resumed ? 'resumed' : 'started'}: ${event.pipeline}, ${plural(event.steps.length, 'step')}`;
    case 'step_started':
      return `${step(event.stepId)} started (attempt ${event.attempt}, ${event.adapter}${event.model ? ` ${event.model}` : ''})${event.reworkOf !== undefined ? ` to rework ${event.reworkOf}` : ''}`;
    case 'step_event':
      if (event.event.kind === 'tool_use') return `${step(event.stepId)} tool ${describeToolUse(event.event)}`;
      if (event.event.kind === 'error') return `${step(event.stepId)} error: ${oneLine(event.event.message)}`;
      return undefined;
    // What only the record keeps: the lines of the events around them say it.
    case 'run_created':
    case 'steps_reset':
    case 'step_began':
    case 'attempt_spawned':
    case 'attempt_interrupted':
    case 'model_request':
    case 'step_output': // the live view's: the output itself is in `wave logs`
    case 'attempt_finished': // the step's own completed, failed and retrying lines say the same; it feeds `wave thread`
      return undefined;
    case 'simulated':
      return `${step(event.stepId)} ${describeSimulated(event)}`;
    case 'replay_matched':
      return `${step(event.stepId)} ${event.purpose === 'step' ? `attempt ${event.attempt}` : event.purpose} replayed from ${event.from}${event.unsetSecrets?.length ? `; warning: ${event.unsetSecrets.join(', ')} unset, their {{wave-secret:…}} placeholders kept` : ''}`;
    case 'replay_mismatch':
      return `${step(event.stepId)} ${event.purpose === 'step' ? `attempt ${event.attempt}` : event.purpose} matches no recording (${event.field})${event.live ? ': running it live' : ''}`;
    case 'step_tokens':
      return `${step(event.stepId)} so far: ${formatTokens(event.tokens)}${event.costUsd !== undefined ? `, ${formatCost(event.costUsd)}` : ''}`;
    case 'step_retrying':
      return `${step(event.stepId)} retrying in ${formatDuration(event.delayMs)} after attempt ${event.attempt}: ${withDetail(event.failure)}`;
    case 'step_fallback':
      return `${step(event.stepId)} falling back from ${event.from} to ${event.to}: ${withDetail(event.failure)}`;
    case 'session_continued':
      return `${step(event.stepId)} continuing session ${event.sessionId} of attempt ${event.from}`;
    case 'session_fresh':
      return `${step(event.stepId)} starting a fresh session: ${oneLine(event.reason)}`;
    case 'artifact_saved':
      return `${step(event.stepId)} artifact ${event.name} saved: ${event.path} (${formatBytes(event.bytes)})`;
    case 'file_change':
      return `${step(event.stepId)} file ${describeFileChange(event)}`;
    case 'artifact_redacted':
      return `${step(event.stepId)} artifact ${event.name}: ${plural(event.count, 'secret')} redacted in the stored copy ${event.path} (the workspace file is unchanged)`;
    case 'mount_subset':
      return `${step(event.stepId)} mount ${event.source} ${describeSubset(event)}`;
    case 'review_started':
      return `${step(event.stepId)} contract ${event.contract}: review by ${event.reviewer} started`;
    case 'review_completed':
      return `${step(event.stepId)} contract ${event.contract}: review by ${event.reviewer} says ${event.verdict} (${plural(event.issues, 'issue')})${event.summary ? `: ${oneLine(event.summary)}` : ''}`;
    case 'review_failed':
      return `${step(event.stepId)} contract ${event.contract}: review by ${event.reviewer} failed: ${oneLine(event.reason)}`;
    case 'contract_checked':
    case 'step_reworking':
    case 'step_rejected':
      return describeVerdictEvent(event, step);
    case 'thread_context':
      return `${step(event.stepId)} thread ${event.thread}: ${event.steps.length ? `receives ${event.steps.join(', ')} (${event.fidelity}, ${event.chars} characters)` : 'nothing to receive yet'}${event.omitted.length ? `; left out to fit: ${event.omitted.join(', ')}` : ''}${event.note ? `; ${event.note}` : ''}`;
    case 'step_completed':
      return `${step(event.stepId)} completed in ${formatDuration(event.durationMs)}${usage(event)}`;
    case 'step_failed':
      return `${step(event.stepId)} failed${event.optional ? ' (optional)' : ''} on attempt ${event.attempt} after ${formatDuration(event.durationMs)}: ${withDetail(event.failure)}`;
    case 'egress':
      // Allowed requests are many and expected; a refusal is what a reader needs to see.
      return event.allowed ? undefined : `${step(event.stepId)} egress denied: ${event.host}:${event.port}${event.reason ? ` (${event.reason})` : ''}`;
    case 'step_skipped': {
      // A skip after a failure quotes its message: its further lines go under the event's, indented.
      const [first, ...rest] = event.reason.split('\n');
      return `${step(event.stepId)} skipped: ${first}${indented(rest)}`;
    }
    case 'step_outcomes':
    case 'run_outputs':
      return describeDeliverableEvent(event, step);
    case 'budget_warning':
    case 'budget_exhausted':
      return describeBudgetEvent(event);
    case 'token_scopes_unchecked':
      return `token scopes of persona ${event.persona} (${event.scopes.join(', ')}) not checked: ${oneLine(event.reason)}`;
    case 'step_cancelled':
      return `${step(event.stepId)} cancelled`;
    case 'run_finished':
      return `run ${event.status} in ${formatDuration(event.durationMs)}${usage(event)}`;
  }
}

/** What --simulate answered: the attempt or request, where its answer came from, and its files by origin. */
function describeSimulated(event: Extract<RunEvent, { type: 'simulated' }>): string {
  const what = event.purpose === 'step' ? `attempt ${event.attempt}` : event.purpose;
  const files = [
    event.generated.length ? `generated ${event.generated.join(', ')}` : '',
    event.placeholders.length ? `placeholder ${event.placeholders.join(', ')}` : '',
    event.fixtures.length ? `fixtures ${event.fixtures.join(', ')}` : '',
  ].filter(Boolean);
  return `${what} simulated (answer: ${event.answer})${files.length ? `; ${files.join('; ')}` : ''}`;
}

/** The line of a contract's verdict, of a rework it asked for, or of a rejection. */
function describeVerdictEvent(event: Extract<RunEvent, { type: 'contract_checked' | 'step_reworking' | 'step_rejected' }>, step: (id: string) => string): string {
  switch (event.type) {
    case 'contract_checked': {
      const again = event.round !== undefined ? ` after rework round ${event.round}` : '';
      return event.passed
        ? `${step(event.stepId)} contract ${event.contract} passed${again}`
        : `${step(event.stepId)} contract ${event.contract} failed${again} (${event.action})${indented(event.errors)}`;
    }
    case 'step_reworking':
      return `${step(event.stepId)} reworking: ${event.target} fixes its work (round ${event.round}) after: ${withDetail(event.failure)}`;
    case 'step_rejected':
      return `${step(event.stepId)} rejected${event.optional ? ' (optional)' : ''} on attempt ${event.attempt} after ${formatDuration(event.durationMs)}, nothing to do: ${withDetail(event.failure)}`;
  }
}

/** The lines of what a step's outcomes yielded, or of the run's outputs. */
function describeDeliverableEvent(event: Extract<RunEvent, { type: 'step_outcomes' | 'run_outputs' }>, step: (id: string) => string): string {
  switch (event.type) {
    case 'step_outcomes':
      return `${step(event.stepId)} outcomes:${indented([...event.outcomes.map((o) => describeOutcome(o)), ...event.warnings.map((w) => `warning: ${w}`)])}`;
    case 'run_outputs':
      return `outputs:${indented([...Object.entries(event.outputs).map(([name, output]) => describeOutput(name, output)), ...event.warnings.map((w) => `warning: ${w}`)])}`;
  }
}

/** The line of a budget warning or of the budget running out. */
function describeBudgetEvent(event: Extract<RunEvent, { type: 'budget_warning' | 'budget_exhausted' }>): string {
  switch (event.type) {
    case 'budget_warning':
      return `budget warning: the run has spent ${formatCost(event.spentUsd)}, reaching runtime.cost.warn_at ${formatCost(event.warnAtUsd)}${event.ceilingUsd !== undefined ? ` (budget_ceiling ${formatCost(event.ceilingUsd)})` : ''}`;
    case 'budget_exhausted':
      return `budget exhausted: the run has spent ${formatCost(event.spentUsd)}, reaching runtime.cost.budget_ceiling ${formatCost(event.ceilingUsd)}; no new step starts and running steps are stopped`;
  }
}

/** The events of a step's iterate list, loop iterations, child runs, gate or route. */
const COMPOSITION_EVENTS = ['iterate_items', 'loop_iteration', 'loop_ended', 'child_run_started', 'child_run_finished', 'gate_waiting', 'gate_resolved', 'step_routed'] as const;
type CompositionEvent = Extract<RunEvent, { type: (typeof COMPOSITION_EVENTS)[number] }>;

function isCompositionEvent(event: RunEvent): event is CompositionEvent {
  return (COMPOSITION_EVENTS as readonly string[]).includes(event.type);
}

/** The line of a step's iterate list, loop iteration, child run, gate or route. */
function describeCompositionEvent(event: CompositionEvent, step: (id: string) => string): string {
  switch (event.type) {
    case 'step_routed':
      return `${step(event.stepId)} ${routeText(event)}`;
    case 'gate_waiting':
      return `${step(event.stepId)} ${gateWaitingText(event, event.runId, event.stepId)}`;
    case 'gate_resolved':
      return `${step(event.stepId)} ${gateResolvedText(event)}`;
    case 'iterate_items':
      return `${step(event.stepId)} iterates over ${plural(event.items, 'item')}${event.reused ? ` (${event.reused} completed in an earlier run, not run again)` : ''}`;
    case 'loop_iteration':
      return `${step(event.stepId)} ${loopIterationText(event)}`;
    case 'loop_ended':
      return `${step(event.stepId)} ${loopEndText(event)}`;
    case 'child_run_started':
      return `${step(event.stepId)} started child run ${event.childRunId} (${event.pipeline}${event.item !== undefined ? `, item ${event.item + 1}` : ''})`;
    case 'child_run_finished':
      return `${step(event.stepId)} child run ${event.childRunId} ${event.status}${usage(event)}${event.failure ? `: ${withDetail(event.failure)}` : ''}`;
  }
}

function usage(event: { tokens: Parameters<typeof formatTokens>[0]; costUsd?: number }): string {
  const tokens = hasTokens(event.tokens) ? `, ${formatTokens(event.tokens)}` : '';
  return `${tokens}${event.costUsd !== undefined ? `, ${formatCost(event.costUsd)}` : ''}`;
}

/** The failure's first line, then the rest of its message (e.g. a stderr tail) and its hint, indented. */
function withDetail(failure: Failure): string {
  const [first, ...rest] = failureDetail(failure);
  return `${first}${indented(rest)}`;
}

/** Each line under the event's, indented: a line holding several (a message, a contract error) is indented line by line. */
function indented(lines: string[]): string {
  return lines
    .flatMap((line) => line.split('\n'))
    .map((line) => `\n    ${line}`)
    .join('');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
