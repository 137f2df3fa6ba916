import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from './locator.js';
import { isRecord } from './value-path.js';

/** What separates a pipeline file from the loop step whose body an address names, and that step from its iteration. */
const MARK = '::';

/** A loop body's address: the pipeline file (itself maybe a body), the loop step, and the 0-based iteration. */
export interface LoopBodyAddress {
  readonly file: string;
  readonly stepId: string;
  readonly iteration: number;
}

/** The address a loop iteration's child run is started and resumed from: `<file>::<step>::<iteration>`. */
export function loopBodyAddress(file: string, stepId: string, iteration: number): string {
  return `${file}${MARK}${stepId}${MARK}${iteration}`;
}

/** The parts of a loop body's address, or undefined for a plain file. */
export function parseLoopBodyAddress(address: string): LoopBodyAddress | undefined {
  const match = /^(.+)::([A-Za-z0-9][A-Za-z0-9_.-]*)::(\d+)$/.exec(address);
  return match ? { file: match[1]!, stepId: match[2]!, iteration: Number(match[3]) } : undefined;
}

/** The pipeline file an address reads, under any number of nested loop bodies. */
export function fileOfAddress(address: string): string {
  const body = parseLoopBodyAddress(address);
  return body ? fileOfAddress(body.file) : address;
}

/** The name of a loop body's pipeline: its parent's, then the loop step's id. */
export function loopBodyName(parent: string, stepId: string): string {
  return `${parent}.${stepId}`;
}

const ITERATION = /\{\{\s*iteration\s*\}\}/g;

/** Each loop body's raw pipeline, to the raw pipeline around its loop (whose artifacts its child steps may hand on). */
const ENCLOSING = new WeakMap<object, unknown>();

/** The raw pipeline around a loop body; undefined for a pipeline that is no loop body. */
export function enclosingPipelineOf(raw: unknown): unknown {
  return isRecord(raw) ? ENCLOSING.get(raw) : undefined;
}

/**
 * A pipeline's raw value narrowed to a loop step's body: a pipeline of the loop's sub-steps (with the parent's skills and
 * requirements), `{{ iteration }}` written in as the iteration's number, and a locator that points into the parent's file.
 */
export function loopBodyOf(raw: unknown, locator: Locator, address: string): { raw: unknown; locator: Locator } {
  const body = parseLoopBodyAddress(address);
  if (!body) return { raw, locator };
  const parent = loopBodyOf(raw, locator, body.file);
  const pipeline = isRecord(parent.raw) ? parent.raw : {};
  const steps = Array.isArray(pipeline.steps) ? pipeline.steps : [];
  const index = steps.findIndex((step) => isRecord(step) && step.id === body.stepId);
  const loop = index >= 0 && isRecord(steps[index]) ? steps[index].loop : undefined;
  if (!isRecord(loop) || !Array.isArray(loop.steps)) {
    throw new WaveError('pipeline_invalid', `the pipeline has no loop step \`${body.stepId}\` (the file changed since the run started?)`, {
      location: parent.locator.locate(['steps']),
      hint: 'Restore the loop step, or start the run again instead of resuming it.',
    });
  }
  const metadata = isRecord(pipeline.metadata) ? pipeline.metadata : {};
  const name = typeof metadata.name === 'string' ? loopBodyName(metadata.name, body.stepId) : body.stepId;
  const derived: Record<string, unknown> = {
    kind: pipeline.kind,
    metadata: { name },
    ...(pipeline.skills !== undefined ? { skills: pipeline.skills } : {}),
    ...(pipeline.requires !== undefined ? { requires: pipeline.requires } : {}),
    steps: loop.steps.map((step) => withIteration(step, String(body.iteration))),
  };
  ENCLOSING.set(derived, parent.raw);
  const inParent = (path: readonly PropertyKey[]): readonly PropertyKey[] => (path[0] === 'steps' ? ['steps', index, 'loop', ...path] : path);
  return {
    raw: derived,
    locator: { locate: (path) => parent.locator.locate(inParent(path)), locateKey: (path) => parent.locator.locateKey(inParent(path)) },
  };
}

/** A sub-step with `{{ iteration }}` written in: not inside a nested loop (its `{{ iteration }}` is its own) nor an iterate's per-item name and input (the item's index). */
function withIteration(step: unknown, iteration: string): unknown {
  if (!isRecord(step)) return step;
  const perItem = step.iterate !== undefined ? ['pipeline', 'input'] : [];
  return Object.fromEntries(
    Object.entries(step).map(([key, value]) => {
      if (perItem.includes(key)) return [key, value];
      return [key, key === 'loop' ? value : written(value, iteration)];
    }),
  );
}

/** Every string in a value with `{{ iteration }}` replaced by the number. */
function written(value: unknown, iteration: string): unknown {
  if (typeof value === 'string') return value.replace(ITERATION, iteration);
  if (Array.isArray(value)) return value.map((item) => written(item, iteration));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, written(item, iteration)]));
  return value;
}
