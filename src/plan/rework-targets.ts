import { ancestorsOf } from '../core/dag.js';
import type { Step } from '../config/schema/pipeline-schema.js';

/** The rework steps a step names: its `retry.rework_step` (with `on_failure: rework`), and each rework contract's own or, failing that, the retry's. */
export function reworkTargetsOf(step: Step): string[] {
  const retryTarget = step.retry?.on_failure === 'rework' ? step.retry.rework_step : undefined;
  const contracts = step.handover?.contracts ?? (step.handover?.contract ? [step.handover.contract] : []);
  const contractTargets = contracts.filter((c) => c.on_failure === 'rework').map((c) => c.rework_step ?? step.retry?.rework_step);
  return [...new Set([retryTarget, ...contractTargets].filter((id): id is string => id !== undefined))];
}

/** What a rework step runs after: the steps that name it and everything they depend on (its thread's transcripts and templates come from there). */
export function reworkAncestors(id: string, steps: readonly Step[], byId: ReadonlyMap<string, Step>): Set<string> {
  const ancestors = ancestorsOf(id, byId);
  for (const step of steps) {
    if (!reworkTargetsOf(step).includes(id)) continue;
    ancestors.add(step.id);
    for (const upstream of ancestorsOf(step.id, byId)) ancestors.add(upstream);
  }
  return ancestors;
}
