import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import PQueue from 'p-queue';
import { failureOfError, type Failure } from '../../core/errors/failure.js';
import type { AttemptStep, IterateStep } from '../../plan/plan-types.js';
import { RunStore } from '../../state/run-store.js';
import type { RunRecord } from '../../state/record/run-record.js';
import { reasonOf } from '../attempt/attempt.js';
import type { ChildRunOutcome } from '../run/child-run-port.js';
import { emit } from '../run/context.js';
import { childOutput, parsedOrText } from './child-output.js';
import { endChildStep } from './child-step-end.js';
import { fieldOf, resolveCompositionText } from './composition-text.js';
import { earlierChild, startOrResumeChild, type StepChildRequest } from './step-child.js';
import type { StepOutcome, StepRun, StepRunner } from './step-run.js';

/** The artifact an iterate step saves: every item's value, in item order (Wave's `<step>:collected-output`). */
export const COLLECTED_OUTPUT = 'collected-output';

/** How one item ended: its child's value, or why it failed (`rejected`: its child run was). */
type ItemEnd = { value: unknown } | { failure: Failure; rejected?: boolean };

/**
 * Wave's `iterate`: the step's child pipeline once per item of `over` (a JSON array), one after another or several at
 * once, each a run of its own. Each item's value is its own child's output; the values, in item order (a failed item's
 * `null` under `on_failure: continue`), are saved as `collected-output` and are the step's output. An item whose child
 * a killed or failed run left unfinished is finished, one that completed is not run again.
 */
export const runIterateStep: StepRunner<IterateStep> = async (run) => {
  const { context, step } = run;
  const started = Date.now();
  emit(context, { type: 'step_began', stepId: step.id });
  const over = resolveCompositionText(context, step.id, step.over, run.outputs);
  let items: unknown[];
  try {
    items = parseItems(over);
  } catch (error) {
    return endChildStep(run, started, { failure: failureOfError(error, 'template_invalid') });
  }
  const width = step.mode === 'parallel' ? (step.maxConcurrent > 0 ? step.maxConcurrent : items.length) : 1;
  return runChildItems(run, started, { items, width, onFailure: step.onFailure, label: 'iterate item', child: (item, index) => ({ values: itemValues(item, index) }) });
};

/** How a step's children run over its items: how many at once, what a failed one does, and what each item's child is. */
export interface ChildItems {
  items: readonly unknown[];
  /** Children at once (the run's max_concurrency still holds). */
  width: number;
  onFailure: 'fail' | 'continue';
  /** How a failed item is named in the step's failure (`iterate item 2 of 3: …`). */
  label: string;
  child: (item: unknown, index: number) => Pick<StepChildRequest, 'values' | 'fixed'>;
  /** A completed child's value, from its record and run folder; default its output (childOutput). */
  value?: (record: RunRecord, dir: string) => unknown;
}

/**
 * Runs a child per item (Wave's iterate, and a fanned-out step's workers), `width` at once; under `fail` the first
 * failure stops the others. The values, in item order (a failed item's `null` under `continue`), are saved as
 * `collected-output` and are the step's output.
 */
export async function runChildItems(run: StepRun<IterateStep | AttemptStep>, started: number, spec: ChildItems): Promise<StepOutcome> {
  const { context, step } = run;
  const { items } = spec;
  const reused = items.filter((_, index) => earlierChild(run, index)?.status === 'completed').length;
  emit(context, { type: 'iterate_items', stepId: step.id, items: items.length, reused });
  // Under `fail`, the first failed item stops the others.
  const siblings = new AbortController();
  const signal = AbortSignal.any([run.signal, siblings.signal]);
  const queue = new PQueue({ concurrency: Math.max(1, Math.min(spec.width, context.plan.runtime.maxConcurrency)) });
  const ends: ItemEnd[] = new Array<ItemEnd>(items.length);
  await Promise.all(
    items.map((item, index) =>
      queue.add(async () => {
        if (signal.aborted) return void (ends[index] = { failure: reasonOf(signal) });
        ends[index] = await runItem(run, index, { ...spec.child(item, index), signal }, spec.value ?? ((record, dir) => parsedOrText(childOutput({ record, dir }))));
        if ('failure' in ends[index] && spec.onFailure === 'fail') siblings.abort(ends[index].failure);
      }),
    ),
  );
  if (run.signal.aborted) return endChildStep(run, started, { failure: reasonOf(run.signal) });
  const failed = ends.flatMap((end, index) => ('failure' in end ? [{ index, ...end }] : []));
  const first = failed.find((f) => f.failure.class !== 'aborted') ?? failed[0];
  if (first && (spec.onFailure === 'fail' || failed.length === items.length)) {
    const failure = { ...first.failure, message: `${spec.label} ${first.index + 1} of ${items.length}: ${first.failure.message}` };
    return endChildStep(run, started, { failure, rejected: first.rejected === true });
  }
  const collected = JSON.stringify(ends.map((end) => ('value' in end ? end.value : null)));
  try {
    await saveCollected(run, collected);
  } catch (error) {
    return endChildStep(run, started, { failure: failureOfError(error, 'io_error') });
  }
  return endChildStep(run, started, { output: collected });
}

/** `over` as Wave reads it: a JSON array, else the step fails saying what it got. */
function parseItems(text: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`iterate.over did not resolve to a JSON array: ${(error as Error).message} (raw: ${text.slice(0, 200)})`, { cause: error });
  }
  if (!Array.isArray(value)) throw new Error(`iterate.over did not resolve to a JSON array (raw: ${text.slice(0, 200)})`);
  return value;
}

/** One item's child: the one an earlier run of the step left for it (finished if need be), else a new one. */
async function runItem(
  run: StepRun<IterateStep | AttemptStep>,
  index: number,
  request: Pick<StepChildRequest, 'values' | 'fixed' | 'signal'>,
  valueOf: NonNullable<ChildItems['value']>,
): Promise<ItemEnd> {
  const earlier = earlierChild(run, index);
  let outcome: ChildRunOutcome;
  try {
    // An item whose child completed keeps its value: the child is not run again.
    if (earlier?.status === 'completed') {
      const store = RunStore.open(run.context.plan.runtime.runsRoot, earlier.runId);
      return { value: valueOf(store.record, store.dir) };
    }
    outcome = await startOrResumeChild(run, { kind: 'iterate_item', item: index, ...request });
  } catch (error) {
    return { failure: failureOfError(error, 'internal') };
  }
  if (outcome.status !== 'completed') {
    const failure = outcome.failure ?? { class: 'internal', message: `child run ${outcome.record.id} ${outcome.status}` };
    return { failure, ...(outcome.status === 'rejected' ? { rejected: true } : {}) };
  }
  return { value: valueOf(outcome.record, outcome.dir) };
}

/** `{{ item }}` (a string item as it is, any other as JSON), `{{ item.<field>… }}` and `{{ iteration }}` (0-based). */
export function itemValues(item: unknown, index: number): (name: string) => string | undefined {
  const text = typeof item === 'string' ? item : JSON.stringify(item);
  return (name) => {
    if (name === 'iteration') return String(index);
    if (name === 'item') return text;
    if (name.startsWith('item.')) return fieldOf(JSON.stringify(item), name.slice('item.'.length).split('.'));
    return undefined;
  };
}

/** Saves the collection in the run's artifact store as the step's `collected-output`. */
async function saveCollected(run: StepRun<IterateStep | AttemptStep>, collected: string): Promise<void> {
  const { context, step } = run;
  const dir = context.store.artifactsDir(step.id);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${COLLECTED_OUTPUT}.json`);
  await writeFile(file, collected);
  emit(context, {
    type: 'artifact_saved',
    stepId: step.id,
    name: COLLECTED_OUTPUT,
    path: relative(context.store.dir, file),
    bytes: Buffer.byteLength(collected),
    artifactType: 'json',
  });
}
