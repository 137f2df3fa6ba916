import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { failureOfError } from '../../core/errors/failure.js';
import { artifactNameOf } from '../../config/schema/pipeline-schema.js';
import type { AggregateStep } from '../../plan/plan-types.js';
import { emit } from '../run/context.js';
import { endChildStep } from './child-step-end.js';
import { resolveCompositionText } from './composition-text.js';
import type { StepRunner } from './step-run.js';

/**
 * Wave's `aggregate`: `from` resolved (usually an iterate step's collection), merged as the strategy says, and saved in
 * the run's artifact store as the artifact named after `into` (never in the project: concurrent runs would share it).
 */
export const runAggregateStep: StepRunner<AggregateStep> = async (run) => {
  const { context, step } = run;
  const started = Date.now();
  emit(context, { type: 'step_began', stepId: step.id });
  let text: string;
  try {
    text = aggregateText(resolveCompositionText(context, step.id, step.from, run.outputs), step);
  } catch (error) {
    return endChildStep(run, started, { failure: failureOfError(error, 'extract_failed') });
  }
  try {
    const dir = context.store.artifactsDir(step.id);
    await mkdir(dir, { recursive: true });
    const file = join(dir, basename(step.into));
    await writeFile(file, text);
    const name = artifactNameOf(step.into);
    emit(context, {
      type: 'artifact_saved',
      stepId: step.id,
      name,
      path: relative(context.store.dir, file),
      bytes: Buffer.byteLength(text),
      ...(step.into.endsWith('.json') ? { artifactType: 'json' } : {}),
    });
  } catch (error) {
    return endChildStep(run, started, { failure: failureOfError(error, 'io_error') });
  }
  return endChildStep(run, started, { output: text });
};

/** The text the strategy makes of `from`: concat and reduce keep it as it is (as Wave does); merge_arrays merges a JSON array. */
export function aggregateText(from: string, step: Pick<AggregateStep, 'strategy' | 'key'>): string {
  if (step.strategy !== 'merge_arrays') return from;
  let items: unknown;
  try {
    items = JSON.parse(from);
  } catch (error) {
    throw new Error(`merge_arrays failed: cannot parse as JSON array: ${(error as Error).message} (raw: ${from.slice(0, 200)})`, { cause: error });
  }
  if (!Array.isArray(items)) throw new Error(`merge_arrays failed: cannot parse as JSON array (raw: ${from.slice(0, 200)})`);
  const elements: unknown[] = items;
  const { key } = step;
  if (key !== undefined) {
    return JSON.stringify(
      elements.flatMap((item, index) => {
        const value = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[key] : undefined;
        if (!Array.isArray(value)) throw new Error(`merge_arrays failed: element ${index}: key ${JSON.stringify(key)} not found or not an array`);
        return value as unknown[];
      }),
    );
  }
  // With no array among the elements there is nothing to flatten: the text stays as it is (Wave's rule).
  if (!elements.some((item) => Array.isArray(item))) return from;
  return JSON.stringify(elements.flatMap((item): unknown[] => (Array.isArray(item) ? (item as unknown[]) : [item])));
}
