import { WaveError, type SourceLocation } from '../../core/errors/errors.js';
import { didYouMean } from './suggest.js';
import { isRecord } from '../load/value-path.js';
import { artifactNameOf } from '../schema/pipeline-schema.js';

/** How messages name a step as written: by its id, else by its place in the list. */
export function stepLabel(step: Record<string, unknown>, index: number): string {
  return typeof step.id === 'string' ? `step \`${step.id}\`` : `step ${index + 1}`;
}

/** The names of the output_artifacts a step declares, as written. */
export function declaredArtifacts(step: Record<string, unknown>): string[] {
  // An aggregate step's one artifact is named after the file it writes.
  if (isRecord(step.aggregate) && typeof step.aggregate.into === 'string') return [artifactNameOf(step.aggregate.into)];
  return Array.isArray(step.output_artifacts) ? step.output_artifacts.flatMap((a) => (isRecord(a) && typeof a.name === 'string' ? [a.name] : [])) : [];
}

/** A reference to artifact `artifact` of step `sourceId` that the step does not declare, at `location`; undefined when it does. */
export function undeclaredArtifactError(sourceId: string, source: Record<string, unknown>, artifact: string, location: SourceLocation): WaveError | undefined {
  const declared = declaredArtifacts(source);
  if (declared.includes(artifact)) return undefined;
  return new WaveError('unknown_artifact', `step \`${sourceId}\` declares no output artifact \`${artifact}\``, {
    location,
    hint: didYouMean(artifact, declared, `Artifacts \`${sourceId}\` declares`),
  });
}
