import { addTokens, NO_TOKENS } from '../../core/models/tokens.js';
import { EVENT_VERSION, type PlannedStepEntry, type RunEvent, type RunEventType } from '../../events.js';
import { budgetExhaustedFailure } from './budget-failure.js';
import type { AttemptRecord, ReviewRecord, RunRecord, StepRecord } from './run-record.js';

/** The failure of an attempt whose Wave process was killed before it could record the attempt's end. */
export const INTERRUPTED_FAILURE = { class: 'aborted', message: 'interrupted: wave run was killed' } as const;

type EventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
type Fold<T extends RunEventType> = (record: RunRecord, event: EventOf<T>) => void;

/** A step that has not run yet. */
export function pendingStep(entry: PlannedStepEntry): StepRecord {
  return {
    id: entry.id,
    status: 'pending',
    optional: entry.optional,
    dependencies: [...entry.dependencies],
    attempts: [],
    tokens: { ...NO_TOKENS },
    artifacts: [],
    contracts: [],
  };
}

/** The record a run_created event starts: every step pending. */
export function createdRecord(event: EventOf<'run_created'>): RunRecord {
  return {
    version: 1,
    id: event.runId,
    pipeline: event.pipeline,
    pipelineFile: event.pipelineFile,
    manifestFile: event.manifestFile,
    input: event.input,
    status: 'pending',
    startedAt: event.ts,
    options: event.options,
    ...(event.parentId !== undefined ? { parentId: event.parentId } : {}),
    ...(event.parentStepId !== undefined ? { parentStepId: event.parentStepId } : {}),
    ...(event.childKind !== undefined ? { childKind: event.childKind } : {}),
    steps: Object.fromEntries(event.steps.map((entry) => [entry.id, pendingStep(entry)])),
    tokens: { ...NO_TOKENS },
  };
}

/** The run_created event of a fresh record (every step pending), as RunStore.create records it. */
export function creationEvent(record: RunRecord): EventOf<'run_created'> {
  const steps = Object.values(record.steps).map((s) => ({ id: s.id, optional: s.optional, dependencies: [...s.dependencies] }));
  const { pipeline, pipelineFile, manifestFile, input, options } = record;
  const parent = parentLink(record);
  return { v: EVENT_VERSION, ts: record.startedAt, runId: record.id, type: 'run_created', pipeline, pipelineFile, manifestFile, input, options, steps, ...parent };
}

/** A child run's link to its parent, as run_created carries it; empty for a run started on its own. */
export function parentLink({ parentId, parentStepId, childKind }: Pick<RunRecord, 'parentId' | 'parentStepId' | 'childKind'>) {
  return { ...(parentId !== undefined ? { parentId } : {}), ...(parentStepId !== undefined ? { parentStepId } : {}), ...(childKind !== undefined ? { childKind } : {}) };
}

const stepOf = (record: RunRecord, stepId: string): StepRecord | undefined => record.steps[stepId];
/** The review of that attempt and contract that started last. */
const reviewOf = (record: RunRecord, e: { stepId: string; attempt: number; contract: string }): ReviewRecord | undefined =>
  stepOf(record, e.stepId)?.reviews?.findLast((r) => r.attempt === e.attempt && r.contract === e.contract);
const attemptOf = (record: RunRecord, stepId: string, attempt: number): AttemptRecord | undefined => stepOf(record, stepId)?.attempts.find((a) => a.attempt === attempt);

/** Ends a step: its status, when, how long, and why (a failure is cleared by a success). */
function endStep(step: StepRecord | undefined, fields: Partial<StepRecord>, ts: string): void {
  if (step) Object.assign(step, { finishedAt: ts, failure: undefined, ...fields });
}

/** Adds an attempt's or a request's tokens and cost to its step. */
function charge(step: StepRecord | undefined, tokens: StepRecord['tokens'], costUsd: number | undefined): void {
  if (!step) return;
  step.tokens = addTokens(step.tokens, tokens);
  if (costUsd !== undefined) step.costUsd = (step.costUsd ?? 0) + costUsd;
}

const ignore = (): void => {};

/** How each event changes the record; events that only report (a stream line, a live token count) change nothing. */
const FOLDS: { [T in RunEventType]: Fold<T> } = {
  run_created: ignore,
  run_started: (r, e) => Object.assign(r, { status: 'running', pid: e.pid, finishedAt: undefined, failure: undefined }),
  steps_reset: (r, e) => {
    // Its attempts and child runs stay on record: a resumed step numbers on after them, and finishes an unfinished child;
    // its visits and the route that sent the walk there too: a resumed walk goes on with them.
    for (const entry of e.steps) {
      const { children, visits, routedBy, status, failure } = r.steps[entry.id] ?? {};
      // One that began goes on with the same visit when it begins again (one its visit limit refused never began).
      const began = status !== 'pending' && failure?.class !== 'route_stopped';
      const visit = visits !== undefined ? { visits, ...(began ? { resumedVisit: true } : {}) } : {};
      const kept = { ...(children ? { children } : {}), ...visit, ...(routedBy !== undefined ? { routedBy } : {}) };
      r.steps[entry.id] = { ...pendingStep(entry), attempts: r.steps[entry.id]?.attempts ?? [], ...kept };
    }
    Object.assign(r, { status: 'pending', finishedAt: undefined });
  },
  step_began: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (!s) return;
    const visits = s.resumedVisit ? (s.visits ?? 1) : (s.visits ?? 0) + 1;
    // Its tokens and cost add up over its visits (a loop, a rework round): the run's total is the sum of its steps'.
    Object.assign(s, { status: 'running', startedAt: e.ts, failure: undefined, artifacts: [], contracts: [], visits });
    delete s.resumedVisit;
    delete s.rework;
    delete s.outcomes;
    delete s.outcomeWarnings;
    delete s.result;
  },
  step_started: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (!s) return;
    // The step's files and artifacts are its last attempt's.
    Object.assign(s, { status: 'running', workspace: e.workspace, filesChanged: [], artifacts: [] });
    const attempt: AttemptRecord = { attempt: e.attempt, adapter: e.adapter, startedAt: e.ts, tokens: { ...NO_TOKENS } };
    if (e.adapterType !== undefined) attempt.adapterType = e.adapterType;
    if (e.model !== undefined) attempt.model = e.model;
    if (s.visits !== undefined) attempt.visit = s.visits;
    if (e.kind !== undefined) attempt.kind = e.kind;
    if (e.reworkOf !== undefined) attempt.reworkOf = e.reworkOf;
    s.attempts = [...s.attempts.filter((a) => a.attempt !== e.attempt), attempt];
  },
  attempt_spawned: (r, e) => {
    const a = attemptOf(r, e.stepId, e.attempt);
    if (a) a.pid = e.pid;
  },
  attempt_interrupted: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (!s) return;
    let a = attemptOf(r, e.stepId, e.attempt);
    if (!a) {
      a = { attempt: e.attempt, adapter: e.adapter, startedAt: e.startedAt, tokens: { ...NO_TOKENS } };
      if (e.model !== undefined) a.model = e.model;
      if (e.pid !== undefined) a.pid = e.pid;
      s.attempts = [...s.attempts, a].sort((x, y) => x.attempt - y.attempt);
    }
    Object.assign(a, { interrupted: true, failure: { ...INTERRUPTED_FAILURE } });
  },
  session_continued: (r, e) => {
    const a = attemptOf(r, e.stepId, e.attempt);
    if (a) a.continuedFrom = e.from;
  },
  attempt_finished: (r, e) => {
    const a = attemptOf(r, e.stepId, e.attempt);
    if (a) {
      Object.assign(a, { finishedAt: e.ts, durationMs: e.durationMs, exitCode: e.exitCode, tokens: e.tokens, costUsd: e.costUsd, failure: e.failure });
      if (e.sessionId !== undefined) a.sessionId = e.sessionId;
    }
    const s = stepOf(r, e.stepId);
    charge(s, e.tokens, e.costUsd);
    if (s) s.result = e.result;
  },
  model_request: (r, e) => charge(stepOf(r, e.stepId), e.tokens, e.costUsd),
  simulated: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (s) s.simulated = (s.simulated ?? 0) + 1;
    const a = e.purpose === 'step' ? attemptOf(r, e.stepId, e.attempt) : undefined;
    if (a) a.simulated = true;
  },
  replay_matched: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (s) s.replayed = (s.replayed ?? 0) + 1;
    const a = e.purpose === 'step' ? attemptOf(r, e.stepId, e.attempt) : undefined;
    if (a) a.replayed = true;
  },
  // The attempt's own events say how it went; the record counts only what a recording served.
  replay_mismatch: () => undefined,
  step_retrying: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (s) s.status = 'retrying';
  },
  artifact_saved: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (!s) return;
    const artifact = { name: e.name, path: e.path, bytes: e.bytes, ...(e.artifactType !== undefined ? { type: e.artifactType } : {}) };
    const at = s.artifacts.findIndex((a) => a.name === e.name);
    s.artifacts = at < 0 ? [...s.artifacts, artifact] : s.artifacts.map((a, i) => (i === at ? artifact : a));
  },
  file_change: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (!s) return;
    const { v: _v, ts: _ts, runId: _run, type: _type, stepId: _step, attempt: _attempt, ...change } = e;
    s.filesChanged = [...(s.filesChanged ?? []), change];
  },
  review_started: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (s) s.reviews = [...(s.reviews ?? []), { attempt: e.attempt, contract: e.contract, reviewer: e.reviewer, status: 'running' }];
  },
  review_completed: (r, e) => {
    const review = reviewOf(r, e);
    if (review) Object.assign(review, { status: 'passed', verdict: e.verdict, issues: e.issues, summary: e.summary });
  },
  review_failed: (r, e) => {
    const review = reviewOf(r, e);
    if (review) Object.assign(review, { status: 'failed', reason: e.reason, ...(e.verdict ? { verdict: e.verdict, issues: e.issues } : {}) });
  },
  contract_checked: (r, e) => {
    stepOf(r, e.stepId)?.contracts.push({
      attempt: e.attempt,
      contract: e.contract,
      passed: e.passed,
      action: e.action,
      errors: e.errors,
      ...(e.round !== undefined ? { round: e.round } : {}),
    });
  },
  egress: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (s && !e.allowed) s.egressDenied = (s.egressDenied ?? 0) + 1;
  },
  step_outcomes: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (s) Object.assign(s, { outcomes: e.outcomes, ...(e.warnings.length ? { outcomeWarnings: e.warnings } : {}) });
  },
  step_completed: (r, e) => endStep(stepOf(r, e.stepId), { status: 'completed', durationMs: e.durationMs }, e.ts),
  step_failed: (r, e) => endStep(stepOf(r, e.stepId), { status: 'failed', durationMs: e.durationMs, failure: e.failure }, e.ts),
  step_reworking: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (s) Object.assign(s, { status: 'reworking', rework: { target: e.target, rounds: e.round, failure: e.failure } });
  },
  step_rejected: (r, e) => endStep(stepOf(r, e.stepId), { status: 'rejected', durationMs: e.durationMs, failure: e.failure }, e.ts),
  gate_waiting: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (s)
      s.gate = {
        status: 'waiting',
        gate: e.gate,
        since: e.ts,
        ...(e.message !== undefined ? { message: e.message } : {}),
        ...(e.choices ? { choices: e.choices } : {}),
        ...(e.defaultChoice !== undefined ? { defaultChoice: e.defaultChoice } : {}),
        ...(e.freeform ? { freeform: true } : {}),
        ...(e.polls !== undefined ? { polls: e.polls } : {}),
      };
  },
  gate_resolved: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (!s) return;
    const { type: _type, v: _v, ts, runId: _runId, stepId: _stepId, ...decision } = e;
    s.gate = { ...(s.gate ?? { gate: 'approval', since: ts }), status: 'resolved', decision: { ...decision, at: ts } };
  },
  step_routed: (r, e) => {
    // A requeued step runs afresh (its child runs too): pending, its attempts, visits, tokens and cost kept; the route that sent it here is gone.
    for (const id of e.requeued) {
      const s = stepOf(r, id);
      if (!s) continue;
      const spent = { tokens: s.tokens, ...(s.costUsd !== undefined ? { costUsd: s.costUsd } : {}) };
      r.steps[id] = { ...pendingStep(s), attempts: s.attempts, ...spent, ...(s.visits !== undefined ? { visits: s.visits } : {}) };
    }
    const target = stepOf(r, e.target);
    if (target) target.routedBy = e.stepId;
  },
  // Each item's child is recorded by its own child_run_started; the count is for the live views.
  iterate_items: () => undefined,
  loop_iteration: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (s) s.loop = { iteration: e.iteration, of: e.of };
  },
  loop_ended: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (s) s.loop = { iteration: e.iterations, of: s.loop?.of ?? e.iterations, ended: e.reason };
  },
  child_run_started: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (!s) return;
    // A resumed child starts again under its own id.
    const earlier = s.children?.find((c) => c.runId === e.childRunId);
    if (earlier) Object.assign(earlier, { status: 'running', failure: undefined });
    else s.children = [...(s.children ?? []), { runId: e.childRunId, pipeline: e.pipeline, status: 'running', ...(e.item !== undefined ? { item: e.item } : {}) }];
  },
  child_run_finished: (r, e) => {
    const s = stepOf(r, e.stepId);
    const child = s?.children?.find((c) => c.runId === e.childRunId);
    if (child) Object.assign(child, { status: e.status, failure: e.failure });
    charge(s, e.tokens, e.costUsd);
    if (s && e.simulated) s.simulated = (s.simulated ?? 0) + e.simulated;
    if (s && e.replayed) s.replayed = (s.replayed ?? 0) + e.replayed;
  },
  step_cancelled: (r, e) => endStep(stepOf(r, e.stepId), { status: 'cancelled', durationMs: e.durationMs, failure: e.failure }, e.ts),
  step_skipped: (r, e) => {
    const s = stepOf(r, e.stepId);
    if (!s) return;
    // A failure set aside by `retry.on_failure: skip` ended the step; a step skipped for a dependency never began.
    if (e.failure) endStep(s, { status: 'skipped', skipReason: e.reason, durationMs: e.durationMs, failure: e.failure }, e.ts);
    else Object.assign(s, { status: 'skipped', skipReason: e.reason });
  },
  budget_exhausted: (r, e) => void (r.failure = budgetExhaustedFailure(e.spentUsd, e.ceilingUsd)),
  run_outputs: (r, e) => {
    r.outputs = e.outputs;
    if (e.warnings.length) r.outputWarnings = e.warnings;
    else delete r.outputWarnings;
  },
  run_finished: (r, e) => Object.assign(r, { status: e.status, finishedAt: e.ts, durationMs: e.durationMs, tokens: e.tokens, costUsd: e.costUsd, pid: undefined }),
  step_event: ignore,
  step_tokens: ignore,
  step_output: ignore,
  thread_context: ignore,
  step_fallback: ignore,
  session_fresh: ignore,
  artifact_redacted: ignore,
  mount_subset: ignore,
  budget_warning: ignore,
  token_scopes_unchecked: ignore,
};

/**
 * Folds one event into the run record, in place (the caller owns the record), and returns it: the only way a run
 * record changes. Deterministic: no clock, no disk; a record rebuilt from events.ndjson is the record the run had.
 */
export function applyEvent(record: RunRecord, event: RunEvent): RunRecord {
  (FOLDS[event.type] as Fold<RunEventType>)(record, event);
  return record;
}

/** The record of a run from its events, the first a run_created; undefined when the events do not start one. */
export function foldEvents(events: readonly RunEvent[]): RunRecord | undefined {
  const first = events[0];
  if (first?.type !== 'run_created') return undefined;
  const record = createdRecord(first);
  for (const event of events.slice(1)) applyEvent(record, event);
  return record;
}
