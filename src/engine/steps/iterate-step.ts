import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import PQueue from 'p-queue';
import { failureOfError, type Failure } from '../../core/errors/failure.js';
import type { IterateStep } from '../../plan/plan-types.js';
import { RunStore } from '../../state/run-store.js';
import { reasonOf } from '../attempt/attempt.js';
import type { ChildRunOutcome } from '../run/child-run-port.js';
import { emit } from '../run/context.js';
import { childOutput, parsedOrText } from './child-output.js';
import { endChildStep } from './child-step-end.js';
import { fieldOf, resolveCompositionText } from './composition-text.js';
import { earlierChild, startOrResumeChild } from './step-child.js';
import type { StepRun, StepRunner } from './step-run.js';

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
  const reused = items.filter((_, index) => earlierChild(run, index)?.status === 'completed').length;
  emit(context, { type: 'iterate_items', stepId: step.id, items: items.length, reused });
  // Under `fail`, the first failed item stops the others.
  const siblings = new AbortController();
  const signal = AbortSignal.any([run.signal, siblings.signal]);
  const width = step.mode === 'parallel' ? Math.min(step.maxConcurrent > 0 ? step.maxConcurrent : items.length, context.plan.runtime.maxConcurrency) : 1;
  const queue = new PQueue({ concurrency: Math.max(1, width) });
  const ends: ItemEnd[] = new Array<ItemEnd>(items.length);
  await Promise.all(
    items.map((item, index) =>
      queue.add(async () => {
        if (signal.aborted) return void (ends[index] = { failure: reasonOf(signal) });
        ends[index] = await runItem(run, item, index, signal);
        if ('failure' in ends[index] && step.onFailure === 'fail') siblings.abort(ends[index].failure);
      }),
    ),
  );
  if (run.signal.aborted) return endChildStep(run, started, { failure: reasonOf(run.signal) });
  const failed = ends.flatMap((end, index) => ('failure' in end ? [{ index, ...end }] : []));
  const first = failed.find((f) => f.failure.class !== 'aborted') ?? failed[0];
  if (first && (step.onFailure === 'fail' || failed.length === items.length)) {
    const failure = { ...first.failure, message: `iterate item ${first.index + 1} of ${items.length}: ${first.failure.message}` };
    return endChildStep(run, started, { failure, rejected: first.rejected === true });
  }
  const collected = JSON.stringify(ends.map((end) => ('value' in end ? end.value : null)));
  try {
    await saveCollected(run, collected);
  } catch (error) {
    return endChildStep(run, started, { failure: failureOfError(error, 'io_error') });
  }
  return endChildStep(run, started, { output: collected });
};

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
async function runItem(run: StepRun<IterateStep>, item: unknown, index: number, signal: AbortSignal): Promise<ItemEnd> {
  const earlier = earlierChild(run, index);
  let outcome: ChildRunOutcome;
  try {
    // An item whose child completed keeps its value: the child is not run again.
    if (earlier?.status === 'completed') return { value: parsedOrText(childOutput(RunStore.open(run.context.plan.runtime.runsRoot, earlier.runId).record)) };
    outcome = await startOrResumeChild(run, { kind: 'iterate_item', item: index, values: itemValues(item, index), signal });
  } catch (error) {
    return { failure: failureOfError(error, 'internal') };
  }
  if (outcome.status !== 'completed') {
    const failure = outcome.failure ?? { class: 'internal', message: `child run ${outcome.record.id} ${outcome.status}` };
    return { failure, ...(outcome.status === 'rejected' ? { rejected: true } : {}) };
  }
  return { value: parsedOrText(childOutput(outcome.record)) };
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
async function saveCollected(run: StepRun<IterateStep>, collected: string): Promise<void> {
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
