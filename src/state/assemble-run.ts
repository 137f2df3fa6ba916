import { addTokens, NO_TOKENS } from '../core/models/tokens.js';
import { EVENT_VERSION, type RunEvent, type RunStatus } from '../events.js';
import type { Plan } from '../plan/plan-types.js';
import { eventsOfPart, type StepPart } from './run-parts.js';
import type { RunRecord, StepRecord } from './record/run-record.js';
import type { RunStore } from './run-store.js';
import { letsDependentsRun } from './record/step-gate.js';

/** The events the parts brought, oldest first. */
export function partEvents(parts: ReadonlyMap<string, StepPart>, runId: string): RunEvent[] {
  return [...parts.values()].flatMap((p) => eventsOfPart(p, runId)).sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
}

/** When a run assembled from parts started: its first part event, else now. */
export function assembledStart(events: readonly RunEvent[]): string {
  return events[0]?.ts ?? new Date().toISOString();
}

/**
 * Records in `store` (a fresh run) a run whose steps ran apart, one job each: run_started, the parts' events oldest
 * first, and a step_skipped for each step without a part that a failed or skipped dependency blocked (as `wave run`
 * would have); any other step without a part stays pending (its job never ran).
 */
export function replayAssembled(store: RunStore, plan: Plan, events: readonly RunEvent[]): void {
  const base = { v: EVENT_VERSION, runId: store.record.id } as const;
  const steps = plan.steps.map((s) => s.id);
  store.appendEvent({ ...base, ts: store.record.startedAt, type: 'run_started', pipeline: plan.pipelineName, steps, resumed: false });
  for (const event of events) store.appendEvent(event);
  const ran = new Set(events.flatMap((e) => ('stepId' in e ? [e.stepId] : [])));
  for (const stepId of plan.layers.flat()) {
    const step = store.record.steps[stepId]!;
    if (ran.has(stepId)) continue;
    const blocker = step.dependencies.find((d) => blocks(store.record.steps[d]!));
    if (!blocker) continue;
    const reason = `dependency \`${blocker}\` ${store.record.steps[blocker]!.status}`;
    store.appendEvent({ ...base, ts: store.record.startedAt, type: 'step_skipped', stepId, reason });
  }
}

/** The run_finished of an assembled run: its status and totals as `wave run` computes them, at its last step's end. */
export function assembledFinish(record: RunRecord): Extract<RunEvent, { type: 'run_finished' }> {
  const steps = Object.values(record.steps);
  const costs = steps.filter((s) => s.costUsd !== undefined);
  const ends = steps.flatMap((s) => (s.finishedAt ? [s.finishedAt] : [])).sort();
  const finishedAt = ends[ends.length - 1] ?? record.startedAt;
  return {
    v: EVENT_VERSION,
    ts: finishedAt,
    runId: record.id,
    type: 'run_finished',
    status: runStatusOf(steps),
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(record.startedAt)),
    tokens: steps.reduce((sum, s) => addTokens(sum, s.tokens), { ...NO_TOKENS }),
    ...(costs.length ? { costUsd: costs.reduce((sum, s) => sum + s.costUsd!, 0) } : {}),
  };
}

/** Whether a dependency in this state keeps its dependents from running (the executor's gate). */
function blocks(step: StepRecord): boolean {
  return step.status === 'skipped' || ((step.status === 'failed' || step.status === 'rejected') && !letsDependentsRun(step));
}

/** A required step failed: failed; one was rejected: rejected; a step never finished: cancelled; else completed. */
function runStatusOf(steps: readonly StepRecord[]): Exclude<RunStatus, 'pending' | 'running'> {
  if (steps.some((s) => s.status === 'failed' && !s.optional)) return 'failed';
  if (steps.some((s) => s.status === 'rejected' && !s.optional)) return 'rejected';
  if (steps.some((s) => !['completed', 'skipped', 'failed', 'rejected'].includes(s.status))) return 'cancelled';
  return 'completed';
}
