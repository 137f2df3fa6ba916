import { join } from 'node:path';
import type { RunOutput } from '../../core/deliverables.js';
import type { RunRecord } from '../../state/record/run-record.js';

/** Where another pipeline's artifact is: a file, or the text of a pipeline output read from a field of one. */
export type ArtifactLocation = { path: string } | { text: string };

/**
 * The artifacts of other pipelines a run may inject (`inject_artifacts[].pipeline`, Wave's cross-pipeline artifacts):
 * those of its parent run and of the child runs its parent finished before starting it (the earlier stages of
 * `wave compose`). Read when a step asks, so a parent's artifacts are those it has produced by then.
 */
export interface PipelineArtifacts {
  /** The pipelines it can give artifacts of. */
  readonly pipelines: readonly string[];
  /** Where `artifact` of `pipeline` is, or undefined when that pipeline has produced none of that name. */
  locate(pipeline: string, artifact: string): ArtifactLocation | undefined;
}

/** The artifacts a run has saved by name (a later step's of the same name wins, as in Wave), then its pipeline_outputs by theirs. */
export function runArtifacts(record: RunRecord, dir: string, outputs: Readonly<Record<string, RunOutput>> | undefined): Map<string, ArtifactLocation> {
  const found = new Map<string, ArtifactLocation>();
  for (const step of Object.values(record.steps)) for (const artifact of step.artifacts) found.set(artifact.name, { path: join(dir, artifact.path) });
  for (const [name, output] of Object.entries(outputs ?? {})) {
    // A field's value is what the output means; a whole artifact is its file (its value may be left out of run.json).
    if (output.field !== undefined && output.value !== undefined) found.set(name, { text: output.value });
    else found.set(name, { path: join(dir, output.path) });
  }
  return found;
}
