import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { isRecord } from '../load/value-path.js';
import { COMPLETE_TARGET, parseCondition } from '../schema/graph-schema.js';
import { ATTEMPT_KEYS, idleKeyErrors } from './child-pipeline-checks.js';
import { stepLabel } from './raw-step.js';
import { didYouMean } from './suggest.js';

/** Keys of steps that do work: a conditional step only routes, so they would do nothing there. */
const WORK_KEYS = [...ATTEMPT_KEYS.filter((key) => key !== 'type'), 'pipeline', 'input', 'config', 'iterate', 'aggregate', 'branch', 'gate'];

/**
 * Graph routing as written: each edge goes to a step of the pipeline (or `_complete`) on a condition Wave can read; a
 * `type: conditional` step routes, so it has edges and nothing to run; `type: pipeline` goes with a `pipeline`.
 */
export function graphStepErrors(step: Record<string, unknown>, index: number, stepIds: readonly string[], locator: Locator): WaveError[] {
  const at = ['steps', index];
  const label = stepLabel(step, index);
  const errors: WaveError[] = [];
  const edges = Array.isArray(step.edges) ? step.edges : [];
  edges.forEach((edge, i) => {
    if (!isRecord(edge)) return;
    if (typeof edge.target === 'string' && edge.target !== COMPLETE_TARGET && !stepIds.includes(edge.target))
      errors.push(
        new WaveError('unknown_dependency', `${label} has an edge to \`${edge.target}\`, which is not a step of this pipeline`, {
          location: locator.locate([...at, 'edges', i, 'target']),
          hint: didYouMean(edge.target, [...stepIds, COMPLETE_TARGET], 'Steps of this pipeline (and `_complete`)'),
        }),
      );
    const condition = typeof edge.condition === 'string' ? parseCondition(edge.condition) : undefined;
    if (typeof condition === 'string')
      errors.push(
        new WaveError('wrong_type', `${label}: the condition of its edge to \`${String(edge.target)}\` cannot be read: ${condition}`, {
          location: locator.locate([...at, 'edges', i, 'condition']),
          hint: 'Write `outcome=success`, `outcome=failure` or `context.<key>=<value>`, or leave it out to take the edge always.',
        }),
      );
  });
  if (step.type === 'conditional') errors.push(...conditionalStepErrors(step, at, label, locator));
  // Without `exec` either, the step's own check says it has nothing to run.
  if (step.type === 'pipeline' && step.pipeline === undefined && (step.exec !== undefined || step.script !== undefined))
    errors.push(
      new WaveError('missing_field', `${label} is \`type: pipeline\` but has no \`pipeline\``, {
        location: locator.locateKey([...at, 'type']),
        hint: 'Add `pipeline: <name>` with the child pipeline the step runs.',
      }),
    );
  return errors;
}

/** A conditional step needs edges to route by, and runs nothing. */
function conditionalStepErrors(step: Record<string, unknown>, at: readonly (string | number)[], label: string, locator: Locator): WaveError[] {
  const errors = idleKeyErrors(step, WORK_KEYS, (key) => ({
    location: locator.locateKey([...at, key]),
    message: `${label} is \`type: conditional\`, so its \`${key}\` would do nothing`,
    hint: `Remove \`${key}\`: a conditional step only routes; put the work in a step before it.`,
  }));
  if (!Array.isArray(step.edges) || step.edges.length === 0)
    errors.push(
      new WaveError('missing_field', `${label} is \`type: conditional\` but has no \`edges\` to route by`, {
        location: locator.locateKey([...at, 'type']),
        hint: 'Add `edges: [{ target: <step>, condition: outcome=success }, { target: <step> }]`.',
      }),
    );
  return errors;
}
