import { NO_TOKENS } from '../core/tokens.js';
import type { Plan, PlannedStep } from '../plan/plan-types.js';
import type { RunRecord, StepRecord } from './run-record.js';

/** A step that has not run yet. */
export function pendingStepRecord(step: PlannedStep): StepRecord {
  return {
    id: step.id,
    status: 'pending',
    optional: step.optional,
    dependencies: [...step.dependencies],
    attempts: [],
    tokens: { ...NO_TOKENS },
    artifacts: [],
    contracts: [],
  };
}

/** A fresh run.json for a plan: every step pending; a child run names the run it belongs to. */
export function newRunRecord(id: string, plan: Plan, options: RunRecord['options'], parentId?: string): RunRecord {
  return {
    version: 1,
    id,
    ...(parentId === undefined ? {} : { parentId }),
    pipeline: plan.pipelineName,
    pipelineFile: plan.pipelineFile,
    manifestFile: plan.manifestFile,
    input: plan.input,
    status: 'pending',
    startedAt: new Date().toISOString(),
    options,
    steps: Object.fromEntries(plan.steps.map((s) => [s.id, pendingStepRecord(s)])),
    tokens: { ...NO_TOKENS },
  };
}
