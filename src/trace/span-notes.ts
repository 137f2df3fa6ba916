import type { RunEvent } from '../events.js';
import type { Attributes } from './trace-span.js';

type EventOf<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;
type Note = [name: string, attributes: Attributes];
type NoteMakers = { [T in RunEvent['type']]?: (event: EventOf<T>) => Note };

const defined = (attributes: Record<string, Attributes[string] | undefined>): Attributes =>
  Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, Attributes[string]] => entry[1] !== undefined));

/** The events a step's span records as span events: what Wave decided about the step between and after its attempts. */
const STEP_NOTES: NoteMakers = {
  step_retrying: (e) => ['wave.retry', { 'wave.attempt': e.attempt, 'wave.retry.delay_ms': e.delayMs, 'error.type': e.failure.class }],
  step_fallback: (e) => ['wave.fallback', { 'wave.fallback.from': e.from, 'wave.fallback.to': e.to, 'error.type': e.failure.class }],
  session_continued: (e) => ['wave.session_continued', { 'wave.attempt': e.attempt, 'gen_ai.conversation.id': e.sessionId, 'wave.session.from_attempt': e.from }],
  contract_checked: (e) => [
    'wave.contract',
    defined({
      'wave.attempt': e.attempt,
      'wave.contract.name': e.contract,
      'wave.contract.passed': e.passed,
      'wave.contract.action': e.action,
      'wave.contract.round': e.round,
      'wave.contract.errors': e.errors.length ? e.errors : undefined,
    }),
  ],
  review_completed: (e) => [
    'wave.review',
    { 'wave.attempt': e.attempt, 'wave.contract.name': e.contract, 'wave.review.reviewer': e.reviewer, 'wave.review.verdict': e.verdict, 'wave.review.issues': e.issues },
  ],
  review_failed: (e) => [
    'wave.review',
    defined({
      'wave.attempt': e.attempt,
      'wave.contract.name': e.contract,
      'wave.review.reviewer': e.reviewer,
      'wave.review.verdict': e.verdict ?? 'none',
      'wave.review.issues': e.issues,
    }),
  ],
  gate_waiting: (e) => ['wave.gate.waiting', defined({ 'wave.gate.kind': e.gate, 'wave.gate.timeout_ms': e.timeoutMs })],
  gate_resolved: (e) => ['wave.gate.resolved', defined({ 'wave.gate.resolved_by': e.by, 'wave.gate.choice': e.key, 'wave.gate.target': e.target })],
  step_routed: (e) => ['wave.routed', { 'wave.route.target': e.target, 'wave.route.outcome': e.outcome }],
  step_reworking: (e) => ['wave.rework', { 'wave.rework.target': e.target, 'wave.rework.round': e.round, 'error.type': e.failure.class }],
  iterate_items: (e) => ['wave.iterate.items', { 'wave.iterate.items': e.items, 'wave.iterate.reused': e.reused }],
  loop_iteration: (e) => ['wave.loop.iteration', { 'wave.loop.iteration': e.iteration, 'wave.loop.of': e.of }],
  loop_ended: (e) => ['wave.loop.ended', { 'wave.loop.iterations': e.iterations, 'wave.loop.reason': e.reason }],
  artifact_saved: (e) => ['wave.artifact', { 'wave.artifact.name': e.name, 'wave.artifact.bytes': e.bytes }],
  child_run_finished: (e) => ['wave.child_run.finished', { 'wave.child_run_id': e.childRunId, 'wave.child_run.status': e.status }],
  egress: (e) => ['wave.egress.denied', defined({ 'wave.attempt': e.attempt, 'server.address': e.host, 'server.port': e.port, 'wave.egress.reason': e.reason })],
};

/** The events a run's span records: its budget and the steps a resume put back. */
const RUN_NOTES: NoteMakers = {
  budget_warning: (e) => ['wave.budget.warning', defined({ 'wave.budget.spent_usd': e.spentUsd, 'wave.budget.warn_at_usd': e.warnAtUsd, 'wave.step.id': e.step })],
  budget_exhausted: (e) => ['wave.budget.exhausted', defined({ 'wave.budget.spent_usd': e.spentUsd, 'wave.budget.ceiling_usd': e.ceilingUsd, 'wave.step.id': e.step })],
  steps_reset: (e) => ['wave.steps_reset', { 'wave.steps': e.steps.map((step) => step.id) }],
  token_scopes_unchecked: (e) => ['wave.token_scopes_unchecked', { 'wave.persona': e.persona, 'wave.token_scopes': e.scopes }],
};

function noteOf(makers: NoteMakers, event: RunEvent): Note | undefined {
  const make = makers[event.type] as ((event: RunEvent) => Note) | undefined;
  return make?.(event);
}

/** The span event a step's span records for `event`, if it records one. */
export function stepNoteOf(event: RunEvent): Note | undefined {
  return noteOf(STEP_NOTES, event);
}

/** The span event a run's span records for `event`, if it records one. */
export function runNoteOf(event: RunEvent): Note | undefined {
  return noteOf(RUN_NOTES, event);
}
