import { EVENT_VERSION, type ChildKind } from '../../events.js';
import type { Plan } from '../../plan/plan-types.js';
import { createdRecord, parentLink } from './apply-event.js';
import type { RunRecord } from './run-record.js';

/** A fresh record for a plan, every step pending (a child run names the run and step it belongs to): what RunStore.create records as its run_created event. */
export function newRunRecord(id: string, plan: Plan, options: RunRecord['options'], parent?: { runId: string; stepId?: string; kind?: ChildKind }): RunRecord {
  const steps = plan.steps.map((s) => ({ id: s.id, optional: s.optional, dependencies: [...s.dependencies] }));
  const { pipelineName: pipeline, pipelineFile, manifestFile, input } = plan;
  const link = parentLink({ parentId: parent?.runId, parentStepId: parent?.stepId, childKind: parent?.kind });
  return createdRecord({ v: EVENT_VERSION, ts: new Date().toISOString(), runId: id, type: 'run_created', pipeline, pipelineFile, manifestFile, input, options, steps, ...link });
}
