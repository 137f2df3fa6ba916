import type { Pipeline, Step } from '../config/schema/pipeline-schema.js';
import { WaveError, type SourceLocation } from '../core/errors/errors.js';
import type { TemplateReference } from './templates.js';

/** Where a matrix step's items are: a JSON file (an earlier step's artifact, or a project file) and the list inside it. */
export interface MatrixItems {
  readonly source: string;
  /** A dot path to the list inside the file; absent: the file is the list. */
  readonly key?: string;
}

/** A step run as several workers, each a child run of the step alone (Wave's `strategy: matrix` and `concurrency: N`). */
export interface PlannedFanOut {
  /** matrix: the items file; count: that many identical workers. */
  readonly items: MatrixItems | { readonly count: number };
  /** Workers at once; 0: every item (the run's max_concurrency still holds). */
  readonly maxConcurrent: number;
  /** The child pipeline every worker runs, as a document: this step alone, its template in place, `{{ task }}` made `{{ input }}`. */
  readonly worker: Readonly<Record<string, unknown>>;
}

const TASK = /\{\{\s*task\s*\}\}/g;

/** Whether the step fans out: a matrix strategy, or a concurrency above 1. */
export function fansOut(step: Step): boolean {
  return step.strategy !== undefined || (step.concurrency ?? 1) > 1;
}

/**
 * The step's fan-out, when it has one. Its worker is a pipeline of the step alone: without its dependencies, thread and
 * fan-out keys, its template written in (a source_path read), its injections of earlier steps' artifacts made
 * injections of this pipeline's (the worker is its child run), `{{ task }}` made the worker's input; the pipeline's skills and requires kept.
 */
export function planFanOut(step: Step, template: string, pipeline: Pipeline): PlannedFanOut | undefined {
  if (!fansOut(step)) return undefined;
  const { strategy, concurrency, dependencies: _dependencies, thread: _thread, fidelity: _fidelity, script, ...rest } = step;
  const body = template.replace(TASK, '{{ input }}');
  const memory = rest.memory?.inject_artifacts
    ? { ...rest.memory, inject_artifacts: rest.memory.inject_artifacts.map(({ step: from, ...ref }) => (from !== undefined ? { ...ref, pipeline: pipeline.metadata.name } : ref)) }
    : rest.memory;
  const exec = rest.exec ? { type: rest.exec.type ?? 'prompt', source: body } : undefined;
  const workerStep = { ...rest, ...(memory ? { memory } : {}), ...(script !== undefined ? { script: body } : { exec }) };
  const worker = {
    kind: 'WavePipeline',
    metadata: { name: `${pipeline.metadata.name}.${step.id}` },
    ...(pipeline.skills ? { skills: pipeline.skills } : {}),
    ...(pipeline.requires ? { requires: pipeline.requires } : {}),
    steps: [workerStep],
  };
  const maxConcurrent = Math.max(0, strategy?.max_concurrency ?? 0);
  const items = strategy ? { source: strategy.items_source, ...(strategy.item_key ? { key: strategy.item_key } : {}) } : { count: concurrency! };
  return { items, maxConcurrent, worker };
}

/**
 * What a fanned-out step may not hold, since each worker is a child run of it alone: `{{ steps.<id>.output }}` (an
 * earlier step's artifact is injected instead), a `thread`; in a matrix, `{{ input }}`, which is its worker's item.
 */
export function fanOutProblems(step: Step, refs: readonly TemplateReference[], locate: (path: readonly PropertyKey[]) => SourceLocation): WaveError[] {
  if (!fansOut(step)) return [];
  const key = step.strategy ? 'strategy' : 'concurrency';
  const problems: WaveError[] = [];
  const hint = 'Inject what the workers need with memory.inject_artifacts, or run the step once without `strategy` and `concurrency`.';
  if (refs.some((ref) => ref.name.startsWith('steps.'))) {
    problems.push(
      new WaveError('template_invalid', `step \`${step.id}\` runs as workers (\`${key}\`), which cannot read \`{{ steps.<id>.output }}\``, { location: locate([key]), hint }),
    );
  }
  if (step.thread !== undefined) {
    problems.push(
      new WaveError('template_invalid', `step \`${step.id}\` runs as workers (\`${key}\`), which cannot join the thread \`${step.thread}\``, {
        location: locate(['thread']),
        hint,
      }),
    );
  }
  if (step.strategy && refs.some((ref) => ref.name === 'input')) {
    problems.push(
      new WaveError('template_invalid', `step \`${step.id}\` is a matrix: each worker's input is its item, \`{{ task }}\`, so \`{{ input }}\` would be the item too`, {
        location: locate(['strategy']),
        hint: 'Write `{{ task }}` for the item; hand the run input to the workers through an artifact an earlier step writes.',
      }),
    );
  }
  return problems;
}
