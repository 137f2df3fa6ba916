import { WaveError } from '../../core/errors/errors.js';
import { ancestorsOf, type DagStep } from '../../core/dag.js';
import type { Locator } from '../load/locator.js';
import { isRecord, type Path } from '../load/value-path.js';
import { didYouMean } from './suggest.js';

/** A step as the rework checks read it: its place, id, dependencies and the raw mapping. */
export interface ReworkStepEntry extends DagStep {
  index: number;
  raw: Record<string, unknown>;
}

/** One rework a step asks for: the step it names, where it names it, and whether the retry (rather than a contract) does. */
interface ReworkRef {
  target: string;
  at: Path;
  byRetry: boolean;
}

/** The keys that make a step something other than attempts of an adapter: a rework step cannot be one. */
const COMPOSITION_KEYS = ['pipeline', 'iterate', 'aggregate', 'branch', 'gate', 'loop'];

/**
 * Wave's rework rules (dag.go validateReworkTarget, RetryConfig.Validate): `on_failure: rework` names its step, which
 * exists, is `rework_only`, is neither the step itself nor upstream or downstream of it; a `retry.rework_step` serves
 * one step only. And those that keep a rework from going wrong here: a rework step runs attempts, hands its own work to
 * no other, only depends on steps done before each step that names it, and no step depends on it.
 */
export function reworkErrors(steps: readonly ReworkStepEntry[], locator: Locator): WaveError[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const errors: WaveError[] = [];
  const retryTargets = new Map<string, string>();
  for (const step of steps) {
    const refs = reworkRefs(step, locator, errors);
    for (const ref of refs) {
      errors.push(...targetErrors(step, ref, byId, locator));
      if (!ref.byRetry || ref.target === step.id) continue;
      const other = retryTargets.get(ref.target);
      if (other !== undefined)
        errors.push(
          new WaveError('conflicting_fields', `the rework step \`${ref.target}\` is the retry.rework_step of both \`${other}\` and \`${step.id}\``, {
            location: locator.locate(ref.at),
            hint: 'Give each step its own rework step (a copy of it under another id), as Wave requires.',
          }),
        );
      else retryTargets.set(ref.target, step.id);
    }
    if (step.raw.rework_only === true) errors.push(...reworkStepErrors(step, refs, steps, locator));
  }
  return errors;
}

/** The reworks a step asks for; a `rework_step` without `on_failure: rework`, or the reverse, is reported. */
function reworkRefs(step: ReworkStepEntry, locator: Locator, errors: WaveError[]): ReworkRef[] {
  const at = ['steps', step.index];
  const retry = isRecord(step.raw.retry) ? step.raw.retry : {};
  const retryTarget = typeof retry.rework_step === 'string' ? retry.rework_step : undefined;
  const refs: ReworkRef[] = [];
  if (retry.on_failure === 'rework') {
    if (retryTarget !== undefined) refs.push({ target: retryTarget, at: [...at, 'retry', 'rework_step'], byRetry: true });
    else errors.push(missingTarget(`step \`${step.id}\` has \`retry.on_failure: rework\` but no \`retry.rework_step\``, locator.locate([...at, 'retry', 'on_failure'])));
  } else if (retryTarget !== undefined)
    errors.push(idleTarget(`step \`${step.id}\`: \`retry.rework_step\``, 'retry.on_failure', locator.locateKey([...at, 'retry', 'rework_step'])));
  for (const [contract, path] of contractsOf(step)) {
    const own = typeof contract.rework_step === 'string' ? contract.rework_step : undefined;
    if (contract.on_failure !== 'rework') {
      if (own !== undefined) errors.push(idleTarget(`step \`${step.id}\`: the contract's \`rework_step\``, 'on_failure', locator.locateKey([...path, 'rework_step'])));
      continue;
    }
    if (own !== undefined) refs.push({ target: own, at: [...path, 'rework_step'], byRetry: false });
    else if (retryTarget === undefined && step.raw.rework_only !== true)
      errors.push(missingTarget(`a contract of step \`${step.id}\` has \`on_failure: rework\` but no \`rework_step\``, locator.locate([...path, 'on_failure'])));
  }
  return refs;
}

/** The step's contracts (`contract` or `contracts`) with their paths. */
function contractsOf(step: ReworkStepEntry): Array<[Record<string, unknown>, Path]> {
  const handover = isRecord(step.raw.handover) ? step.raw.handover : {};
  const at = ['steps', step.index, 'handover'];
  if (isRecord(handover.contract)) return [[handover.contract, [...at, 'contract']]];
  if (!Array.isArray(handover.contracts)) return [];
  return handover.contracts.flatMap((c, i): Array<[Record<string, unknown>, Path]> => (isRecord(c) ? [[c, [...at, 'contracts', i]]] : []));
}

/** Where a rework leads must be a `rework_only` step of the pipeline, neither the step itself nor upstream or downstream of it. */
function targetErrors(step: ReworkStepEntry, ref: ReworkRef, byId: ReadonlyMap<string, ReworkStepEntry>, locator: Locator): WaveError[] {
  const location = locator.locate(ref.at);
  const target = byId.get(ref.target);
  const fail = (code: 'unknown_dependency' | 'wrong_type' | 'dag_cycle', message: string, hint: string) => [new WaveError(code, message, { location, hint })];
  if (!target)
    return fail(
      'unknown_dependency',
      `step \`${step.id}\` names the rework step \`${ref.target}\`, which is not a step of this pipeline`,
      didYouMean(ref.target, [...byId.keys()], 'Steps of this pipeline'),
    );
  if (target.id === step.id) return fail('dag_cycle', `step \`${step.id}\` names itself as its rework step`, 'Name a `rework_only` step that fixes its work.');
  if (target.raw.rework_only !== true)
    return fail(
      'wrong_type',
      `the rework step \`${target.id}\` of step \`${step.id}\` is not \`rework_only\`, so it would also run in the run's order`,
      `Add \`rework_only: true\` to \`${target.id}\`.`,
    );
  if (ancestorsOf(step.id, byId).has(target.id) || ancestorsOf(target.id, byId).has(step.id))
    return fail(
      'dag_cycle',
      `the rework step \`${target.id}\` of step \`${step.id}\` depends on it, or it on \`${target.id}\``,
      'Remove the dependency between the two: the rework step runs when the step fails.',
    );
  return [];
}

/** A rework step runs attempts, hands its work to no other step, only depends on what is done before each step that names it, and has no dependents. */
function reworkStepErrors(step: ReworkStepEntry, refs: readonly ReworkRef[], steps: readonly ReworkStepEntry[], locator: Locator): WaveError[] {
  const at = ['steps', step.index];
  const errors: WaveError[] = [];
  const composition = COMPOSITION_KEYS.find((key) => step.raw[key] !== undefined);
  if (composition)
    errors.push(
      new WaveError('conflicting_fields', `the rework step \`${step.id}\` has \`${composition}\`: a rework step runs a prompt or a command`, {
        location: locator.locateKey([...at, composition]),
        hint: 'Make the rework step an agent or command step, and put the child pipeline in it as a step of its own pipeline if need be.',
      }),
    );
  for (const ref of refs)
    errors.push(
      new WaveError('conflicting_fields', `the rework step \`${step.id}\` names a rework step of its own, \`${ref.target}\``, {
        location: locator.locate(ref.at),
        hint: 'Remove it: a rework step that fails fails the step it was fixing.',
      }),
    );
  const byId = new Map(steps.map((s) => [s.id, s]));
  for (const other of steps) {
    if (other.dependencies?.includes(step.id))
      errors.push(
        new WaveError('unknown_dependency', `step \`${other.id}\` depends on the rework step \`${step.id}\`, which runs only when a step's work needs fixing`, {
          location: locator.locate(['steps', other.index, 'dependencies', other.dependencies.indexOf(step.id)]),
          hint: `Depend on the step \`${step.id}\` fixes instead: its dependents wait for the rework.`,
        }),
      );
    if (!reworkTargetIds(other).includes(step.id)) continue;
    const done = ancestorsOf(other.id, byId);
    const early = (step.dependencies ?? []).find((d) => !done.has(d));
    if (early !== undefined)
      errors.push(
        new WaveError('unknown_dependency', `the rework step \`${step.id}\` depends on \`${early}\`, which may not be done when \`${other.id}\` needs its rework`, {
          location: locator.locate([...at, 'dependencies', step.dependencies!.indexOf(early)]),
          hint: `Make \`${other.id}\` depend on \`${early}\` too, or remove the dependency.`,
        }),
      );
  }
  return errors;
}

/** The rework steps a raw step names. */
function reworkTargetIds(step: ReworkStepEntry): string[] {
  const retry = isRecord(step.raw.retry) ? step.raw.retry : {};
  const retryTarget = typeof retry.rework_step === 'string' ? retry.rework_step : undefined;
  const named = contractsOf(step).flatMap(([c]) => (c.on_failure === 'rework' ? [typeof c.rework_step === 'string' ? c.rework_step : retryTarget] : []));
  return [retry.on_failure === 'rework' ? retryTarget : undefined, ...named].filter((id): id is string => id !== undefined);
}

function missingTarget(message: string, location: ReturnType<Locator['locate']>): WaveError {
  return new WaveError('missing_field', message, { location, hint: 'Add `rework_step: <id>`, naming a step with `rework_only: true` that fixes the work.' });
}

function idleTarget(what: string, policy: string, location: ReturnType<Locator['locate']>): WaveError {
  return new WaveError('conflicting_fields', `${what} does nothing unless \`${policy}\` is \`rework\``, {
    location,
    hint: `Set \`${policy}: rework\`, or remove the rework step.`,
  });
}
