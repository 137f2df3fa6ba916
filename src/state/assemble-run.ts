import { addTokens, NO_TOKENS } from '../core/tokens.js';
import type { RunStatus } from '../events.js';
import type { Plan } from '../plan/plan-types.js';
import { newRunRecord } from './new-run-record.js';
import type { RunRecord, StepRecord } from './run-record.js';
import type { StepPart } from './run-parts.js';
import { letsDependentsRun } from './step-gate.js';

/** Puts the parts of steps run elsewhere into a record (the dependencies of a step about to run here). */
export function mergeStepParts(record: RunRecord, parts: ReadonlyMap<string, StepPart>): void {
  for (const [id, part] of parts) if (record.steps[id]) record.steps[id] = part.step;
}

/**
 * The run record of a run whose steps ran apart (one job each) and left their parts: the steps as their
 * parts say; a step without a part is skipped when a dependency failed or was skipped (as `wave run` would
 * have), else left pending (its job never ran); the status and totals as `wave run` computes them.
 */
export function assembleRunRecord(plan: Plan, id: string, parts: ReadonlyMap<string, StepPart>, options: RunRecord['options']): RunRecord {
  const record = newRunRecord(id, plan, options);
  mergeStepParts(record, parts);
  for (const layer of plan.layers) {
    for (const stepId of layer) {
      const step = record.steps[stepId]!;
      if (parts.has(stepId)) continue;
      const blocker = step.dependencies.find((d) => blocks(record.steps[d]!));
      if (blocker) Object.assign(step, { status: 'skipped', skipReason: `dependency \`${blocker}\` ${record.steps[blocker]!.status}` });
    }
  }
  const steps = Object.values(record.steps);
  const costs = steps.filter((s) => s.costUsd !== undefined);
  const starts = steps.flatMap((s) => (s.startedAt ? [s.startedAt] : [])).sort();
  const ends = steps.flatMap((s) => (s.finishedAt ? [s.finishedAt] : [])).sort();
  const startedAt = starts[0] ?? record.startedAt;
  const finishedAt = ends[ends.length - 1] ?? startedAt;
  return Object.assign(record, {
    status: runStatusOf(steps),
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)),
    tokens: steps.reduce((sum, s) => addTokens(sum, s.tokens), { ...NO_TOKENS }),
    costUsd: costs.length ? costs.reduce((sum, s) => sum + s.costUsd!, 0) : undefined,
  });
}

/** Whether a dependency in this state keeps its dependents from running (the executor's gate). */
function blocks(step: StepRecord): boolean {
  return step.status === 'skipped' || (step.status === 'failed' && !letsDependentsRun(step));
}

/** A required step failed: failed; a step never finished: cancelled; else completed. */
function runStatusOf(steps: readonly StepRecord[]): RunStatus {
  if (steps.some((s) => s.status === 'failed' && !s.optional)) return 'failed';
  if (steps.some((s) => s.status !== 'completed' && s.status !== 'skipped' && s.status !== 'failed')) return 'cancelled';
  return 'completed';
}
