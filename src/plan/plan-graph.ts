import type { Pipeline, Step } from '../config/schema/pipeline-schema.js';
import { DEFAULT_MAX_STEP_VISITS, DEFAULT_MAX_VISITS, parseCondition } from '../config/schema/graph-schema.js';
import type { ConditionalStep, Plan, PlannedEdge } from './plan-types.js';

/** A step's graph routing: its edges (conditions parsed; the checks refused the unreadable) and its visit limit as written (0: the default). */
export function planRouting(step: Step): { edges?: readonly PlannedEdge[]; maxVisits?: number } {
  const edges = (step.edges ?? []).map((edge) => {
    const condition = parseCondition(edge.condition);
    return { target: edge.target, condition: typeof condition === 'string' ? { on: 'always' as const } : condition, when: (edge.condition ?? '').trim() };
  });
  return {
    ...(edges.length ? { edges } : {}),
    ...(step.max_visits ? { maxVisits: step.max_visits } : {}),
  };
}

/** A conditional step: it runs nothing, its edges route. */
export function planConditionalStep(step: Step): Omit<ConditionalStep, 'location'> {
  return { id: step.id, kind: 'conditional', dependencies: step.dependencies ?? [], optional: step.optional ?? false };
}

/** Wave's graph mode, set when a step has edges or is conditional: it brings the limit of all visits. */
export function planGraph(pipeline: Pipeline): Pick<Plan, 'graph'> {
  if (!pipeline.steps.some((s) => s.edges?.length || s.type === 'conditional')) return {};
  return { graph: { maxStepVisits: pipeline.max_step_visits || DEFAULT_MAX_STEP_VISITS } };
}

/** How many times a step may run in one run. */
export function maxVisitsOf(step: { maxVisits?: number }): number {
  return step.maxVisits ?? DEFAULT_MAX_VISITS;
}
