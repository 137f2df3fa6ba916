import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { isRecord } from '../load/value-path.js';
import { FAIL_TARGET } from '../schema/gate-schema.js';
import { ATTEMPT_KEYS, idleKeyErrors } from './child-pipeline-checks.js';
import { stepLabel } from './raw-step.js';
import { didYouMean } from './suggest.js';

/** `type: gate` without a `gate` would make an ordinary step of it: refused, so the wait is never lost. */
export function gateTypeErrors(step: Record<string, unknown>, index: number, locator: Locator): WaveError[] {
  if (step.type !== 'gate' || step.gate !== undefined) return [];
  return [
    new WaveError('missing_field', `${stepLabel(step, index)} is \`type: gate\` but has no \`gate\``, {
      location: locator.locate(['steps', index, 'type']),
      hint: 'Add `gate: { type: approval }` (or timer) to say what it waits for, or remove `type: gate`.',
    }),
  ];
}

/**
 * A gate step waits and runs nothing: keys of another kind of step would do nothing; its choices' keys are its own,
 * its default is one of them, each target is a step of the pipeline (or `_fail`), and a timer says how long.
 */
export function gateStepErrors(step: Record<string, unknown>, index: number, stepIds: readonly string[], locator: Locator): WaveError[] {
  const at = ['steps', index];
  const label = stepLabel(step, index);
  const gate = isRecord(step.gate) ? step.gate : {};
  const errors = idleKeyErrors(
    step,
    [...ATTEMPT_KEYS, 'pipeline', 'input', 'config', 'iterate', 'aggregate', 'branch'].filter((key) => key !== 'type'),
    (key) => ({
      location: locator.locateKey([...at, key]),
      message: `${label} is a gate, so its \`${key}\` would do nothing`,
      hint: `Remove \`${key}\`, or move the work into a step of its own after the gate.`,
    }),
  );
  const choices = Array.isArray(gate.choices) ? gate.choices.filter(isRecord) : [];
  const keys = choices.map((choice) => choice.key).filter((key): key is string => typeof key === 'string');
  keys.forEach((key, i) => {
    if (keys.indexOf(key) !== i)
      errors.push(
        new WaveError('wrong_type', `${label}: the gate has two choices with the key \`${key}\``, {
          location: locator.locate([...at, 'gate', 'choices', i, 'key']),
          hint: 'Give every choice its own key.',
        }),
      );
  });
  if (typeof gate.default === 'string' && !keys.includes(gate.default))
    errors.push(
      new WaveError('wrong_type', `${label}: the gate's default \`${gate.default}\` is not the key of one of its choices`, {
        location: locator.locate([...at, 'gate', 'default']),
        hint: didYouMean(gate.default, keys, 'Choice keys'),
      }),
    );
  choices.forEach((choice, i) => {
    if (typeof choice.target !== 'string' || choice.target === FAIL_TARGET || stepIds.includes(choice.target)) return;
    errors.push(
      new WaveError('unknown_dependency', `${label}: the choice \`${String(choice.key)}\` goes to \`${choice.target}\`, which is not a step of this pipeline`, {
        location: locator.locate([...at, 'gate', 'choices', i, 'target']),
        hint: didYouMean(choice.target, [...stepIds, FAIL_TARGET], 'Steps of this pipeline (and `_fail`)'),
      }),
    );
  });
  if (gate.type === 'pr_merge' && gate.pr_number === undefined)
    errors.push(
      new WaveError('missing_field', `${label}: a pr_merge gate needs \`pr_number\`, the pull request it waits for`, {
        location: locator.locate([...at, 'gate']),
        hint: "Add `pr_number: 12` (and `repo: owner/repo` when it is not the project's).",
      }),
    );
  errors.push(...idleGateKeyErrors(gate, label, at, locator));
  if (gate.type === 'timer' && gate.timeout === undefined)
    errors.push(
      new WaveError('missing_field', `${label}: a timer gate needs \`timeout\`, how long it waits`, {
        location: locator.locate([...at, 'gate']),
        hint: 'Add `timeout: 30s` (or 5m, 1h).',
      }),
    );
  return errors;
}

/** The gate keys each type of gate reads. */
const GATE_KEYS: Record<string, readonly string[]> = {
  approval: ['type', 'auto', 'timeout', 'message', 'prompt', 'choices', 'default', 'freeform', 'environment'],
  timer: ['type', 'timeout', 'message', 'prompt'],
  pr_merge: ['type', 'auto', 'timeout', 'message', 'prompt', 'pr_number', 'repo', 'interval'],
  ci_pass: ['type', 'auto', 'timeout', 'message', 'prompt', 'repo', 'branch', 'interval'],
};

/** A key another type of gate reads would do nothing on this one: refused, so it is never silently ignored. */
function idleGateKeyErrors(gate: Record<string, unknown>, label: string, at: readonly (string | number)[], locator: Locator): WaveError[] {
  const reads = typeof gate.type === 'string' ? GATE_KEYS[gate.type] : undefined;
  if (!reads) return [];
  const readers = (key: string) => Object.keys(GATE_KEYS).filter((type) => GATE_KEYS[type]!.includes(key));
  return Object.keys(gate)
    .filter((key) => !reads.includes(key) && readers(key).length)
    .map(
      (key) =>
        new WaveError('conflicting_fields', `${label}: a ${String(gate.type)} gate does nothing with \`${key}\``, {
          location: locator.locateKey([...at, 'gate', key]),
          hint: `Remove \`${key}\`: only ${readers(key).join(' and ')} gates read it.`,
        }),
    );
}
