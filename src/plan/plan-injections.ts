import type { InjectArtifact, Step } from '../config/schema/pipeline-schema.js';
import { readSchema } from './plan-contracts.js';
import type { PlannedInjection } from './plan-types.js';

/** The step's `memory.inject_artifacts`, each with its `schema_path` read and compiled, so a bad schema stops the plan. */
export function planInjections(step: Step, manifestDir: string): PlannedInjection[] {
  return (step.memory?.inject_artifacts ?? []).map((ref: InjectArtifact) => {
    const schemaObject = ref.schema_path ? readSchema({ schema_path: ref.schema_path }, manifestDir, `step \`${step.id}\` inject_artifacts \`${ref.artifact}\``) : undefined;
    return { ...ref, ...(schemaObject ? { schemaObject } : {}) };
  });
}
