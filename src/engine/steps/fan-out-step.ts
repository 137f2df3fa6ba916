import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { readStepOutput } from '../../state/step-output-file.js';
import { isAbsolute, join, resolve } from 'node:path';
import { WaveError } from '../../core/errors/errors.js';
import { failureOfError } from '../../core/errors/failure.js';
import { isInside } from '../../core/inside-path.js';
import type { MatrixItems, PlannedFanOut } from '../../plan/plan-fan-out.js';
import { isAttemptStep, type AttemptStep } from '../../plan/plan-types.js';
import { emit, type RunContext } from '../run/context.js';
import { endChildStep } from './child-step-end.js';
import { parsedOrText } from './child-output.js';
import { runChildItems } from './iterate-step.js';
import type { StepOutcome, StepRun } from './step-run.js';

/**
 * A step with `strategy: matrix` or `concurrency: N`: its workers, each a child run of the step alone in a workspace
 * of its own, at most `max_concurrency` (and the run's) at once; the first failure stops the others (Wave's errgroup).
 * A matrix worker's input, `{{ task }}`, is its item (a string as it is, anything else as JSON); each of N concurrent
 * workers gets the run's input. Their outputs, in order, are the step's `collected-output`, as an iterate's.
 */
export async function runFanOut(run: StepRun<AttemptStep>, fanOut: PlannedFanOut): Promise<StepOutcome> {
  const { context, step } = run;
  const started = Date.now();
  emit(context, { type: 'step_began', stepId: step.id });
  let items: unknown[];
  let pipeline: string;
  try {
    items = 'count' in fanOut.items ? Array.from({ length: fanOut.items.count }, (_, index) => index) : await readMatrixItems(context, fanOut.items);
    pipeline = await writeWorker(context, step.id, fanOut);
  } catch (error) {
    return endChildStep(run, started, { failure: failureOfError(error, 'artifact_missing') });
  }
  const matrix = !('count' in fanOut.items);
  return runChildItems(run, started, {
    items,
    width: fanOut.maxConcurrent > 0 ? fanOut.maxConcurrent : items.length,
    onFailure: 'fail',
    label: matrix ? 'matrix item' : 'worker',
    child: (item) => ({ fixed: { pipeline, input: matrix ? (typeof item === 'string' ? item : JSON.stringify(item)) : context.plan.input } }),
    // A worker's value is its step's output, as Wave's worker results are.
    value: (_record, dir) => parsedOrText(readStepOutput(dir, step.id)),
  });
}

/** The worker pipeline, written beside the step's record: each worker is a child run of it. */
async function writeWorker(context: RunContext, stepId: string, fanOut: PlannedFanOut): Promise<string> {
  const dir = join(context.store.dir, 'steps', stepId);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'worker.yaml');
  // JSON is YAML: the document as the plan made it.
  await writeFile(file, JSON.stringify(fanOut.worker, null, 2));
  return file;
}

/**
 * The matrix's items: `<step>/<name>` is the saved copy of that earlier step's artifact named `<name>` (or whose
 * declared path is `<name>`); any other source is a file of the project. `key` is a dot path to the list inside.
 */
export async function readMatrixItems(context: RunContext, items: MatrixItems): Promise<unknown[]> {
  const file = matrixSourceFile(context, items.source);
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw new WaveError('artifact_missing', `strategy.items_source \`${items.source}\` (${file}) is not a readable JSON file: ${(cause as Error).message}`, { cause });
  }
  for (const part of items.key ? items.key.split('.') : []) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, part)) {
      throw new WaveError('artifact_missing', `strategy.item_key \`${items.key}\`: \`${part}\` is not a key of an object in ${file}`);
    }
    value = (value as Record<string, unknown>)[part];
  }
  if (!Array.isArray(value)) throw new WaveError('artifact_missing', `strategy.items_source \`${items.source}\` holds no JSON list${items.key ? ` at \`${items.key}\`` : ''}`);
  return value as unknown[];
}

function matrixSourceFile(context: RunContext, source: string): string {
  const { plan, store } = context;
  const slash = source.indexOf('/');
  const producer = slash > 0 ? plan.steps.find((s) => s.id === source.slice(0, slash)) : undefined;
  if (producer) {
    const ref = source.slice(slash + 1);
    const name = isAttemptStep(producer) ? (producer.outputArtifacts.find((a) => a.name === ref || a.path === ref)?.name ?? ref) : ref;
    const saved = store.savedArtifactPath(producer.id, name);
    if (!saved) throw new WaveError('artifact_missing', `strategy.items_source \`${source}\`: step \`${producer.id}\` saved no artifact \`${name}\``);
    return saved;
  }
  const file = resolve(plan.projectRoot, source);
  if (isAbsolute(source) || !isInside(plan.projectRoot, file)) {
    throw new WaveError('artifact_missing', `strategy.items_source \`${source}\` is outside the project folder`, {
      hint: "Name an earlier step's artifact as `<step>/<artifact>`, or a file inside the project folder.",
    });
  }
  return file;
}
