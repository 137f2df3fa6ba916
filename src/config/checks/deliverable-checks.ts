import { OUTCOME_TYPES, OUTCOME_TYPES_FROM_JSON, type OutcomeType } from '../../core/deliverables.js';
import { JsonPathError, parseJsonPath, takesEachItem } from '../../core/json-path.js';
import { WaveError } from '../../core/errors/errors.js';
import { leavesWorkspace } from './artifact-dir-check.js';
import type { Locator } from '../load/locator.js';
import { declaredArtifacts, stepLabel } from './raw-step.js';
import { inputMismatch } from '../load/run-input.js';
import { didYouMean } from './suggest.js';
import { isRecord } from '../load/value-path.js';
import { describeValue } from '../load/zod-issues.js';

/**
 * What a pipeline takes and gives back, checked on the raw value: `input.default` and `input.example` fit the declared
 * input; each of `pipeline_outputs` names a step and one of its artifacts (Wave checks the step; an artifact nobody
 * declares would only ever be missing) and a readable `field`; each step's `outcomes` follow Wave's OutcomeDef.Validate,
 * with paths that can be read and that stay in the workspace. `opaque`: steps whose artifacts only the run knows (a child pipeline's, a loop's).
 */
export function checkDeliverables(root: Record<string, unknown>, locator: Locator, opaque: ReadonlySet<string>): WaveError[] {
  const steps = Array.isArray(root.steps) ? root.steps.filter(isRecord) : [];
  return [
    ...checkInputValues(root.input, locator),
    ...checkPipelineOutputs(root.pipeline_outputs, steps, locator, opaque),
    ...(Array.isArray(root.steps) ? root.steps.flatMap((step, index) => (isRecord(step) ? checkOutcomes(step, index, locator) : [])) : []),
  ];
}

/** The default is the input of a run without one, and the example is what error hints show: both must fit. */
function checkInputValues(input: unknown, locator: Locator): WaveError[] {
  if (!isRecord(input)) return [];
  return (['default', 'example'] as const).flatMap((key) => {
    const value = input[key];
    const mismatch = typeof value === 'string' ? inputMismatch(input, value) : undefined;
    if (!mismatch) return [];
    return [
      new WaveError('wrong_type', `input.${key} ${describeValue(value)} is not ${mismatch.label}: ${mismatch.why}`, {
        location: locator.locate(['input', key]),
        hint: `Write ${mismatch.expected}.`,
      }),
    ];
  });
}

/** The artifacts a step produces: its output_artifacts, and `extract` when it has an extract. */
function artifactsOf(step: Record<string, unknown>): string[] {
  const declared = declaredArtifacts(step);
  return step.extract !== undefined ? [...declared, 'extract'] : declared;
}

function checkPipelineOutputs(outputs: unknown, steps: Record<string, unknown>[], locator: Locator, opaque: ReadonlySet<string>): WaveError[] {
  if (!isRecord(outputs)) return [];
  const ids = steps.flatMap((s) => (typeof s.id === 'string' ? [s.id] : []));
  const errors: WaveError[] = [];
  for (const [name, output] of Object.entries(outputs)) {
    if (!isRecord(output)) continue;
    const at = ['pipeline_outputs', name];
    if (typeof output.field === 'string') {
      const problem = pathProblem(output.field);
      if (problem || takesEachItem(parseJsonPath(output.field))) {
        errors.push(
          new WaveError('wrong_type', `pipeline output \`${name}\`: field \`${output.field}\` ${problem ?? 'takes every item ([*]), but an output is one value'}`, {
            location: locator.locate([...at, 'field']),
            hint: "Write a dot path into the artifact's JSON, e.g. `pr_url` or `items[0].url`.",
          }),
        );
      }
    }
    if (typeof output.step !== 'string' || opaque.has(output.step)) continue;
    const step = steps.find((s) => s.id === output.step);
    if (!step) {
      errors.push(
        new WaveError('unknown_dependency', `pipeline output \`${name}\` names step \`${output.step}\`, which is not a step of this pipeline`, {
          location: locator.locate([...at, 'step']),
          hint: didYouMean(output.step, ids, 'Steps of this pipeline'),
        }),
      );
      continue;
    }
    const declared = artifactsOf(step);
    if (typeof output.artifact === 'string' && !declared.includes(output.artifact)) {
      errors.push(
        new WaveError('unknown_artifact', `pipeline output \`${name}\` names artifact \`${output.artifact}\`, which step \`${output.step}\` does not declare`, {
          location: locator.locate([...at, 'artifact']),
          hint: didYouMean(output.artifact, declared, `Artifacts \`${output.step}\` declares`),
        }),
      );
    }
  }
  return errors;
}

function checkOutcomes(step: Record<string, unknown>, index: number, locator: Locator): WaveError[] {
  if (!Array.isArray(step.outcomes)) return [];
  const who = stepLabel(step, index);
  const errors: WaveError[] = [];
  step.outcomes.forEach((outcome: unknown, i) => {
    // An unknown type is the schema's to report: what its other keys should be is not known.
    if (!isRecord(outcome) || !(OUTCOME_TYPES as readonly unknown[]).includes(outcome.type)) return;
    const at = ['steps', index, 'outcomes', i];
    const type = outcome.type as OutcomeType;
    const fromJson = OUTCOME_TYPES_FROM_JSON.has(type);
    const problem = (key: string, code: 'wrong_type' | 'missing_field' | 'conflicting_fields', message: string, hint: string) =>
      errors.push(new WaveError(code, `${who} outcome ${i + 1}: ${message}`, { location: locator.locate([...at, key]), hint }));
    if (typeof outcome.extract_from === 'string' && leavesWorkspace(outcome.extract_from)) {
      problem(
        'extract_from',
        'wrong_type',
        `extract_from \`${outcome.extract_from}\` leads outside the step's workspace`,
        "Name a file inside the step's workspace, relative to it.",
      );
    }
    if (fromJson && outcome.json_path === undefined) {
      problem('type', 'missing_field', `\`json_path\` is required for a ${type} outcome`, 'Add `json_path:`, the dot path of the link in the JSON file, e.g. `.pr_url`.');
    }
    if (!fromJson && outcome.json_path !== undefined) {
      problem(
        'json_path',
        'conflicting_fields',
        `json_path does nothing for ${type === 'artifact' ? 'an' : 'a'} ${type} outcome: its value is the file extract_from names`,
        'Remove json_path, or use type pr, issue, url or deployment for a link read from the file.',
      );
    }
    const paths = (['json_path', 'json_path_label'] as const).filter((key) => typeof outcome[key] === 'string');
    for (const key of paths) {
      const why = pathProblem(outcome[key] as string);
      if (why) problem(key, 'wrong_type', `${key} \`${String(outcome[key])}\` ${why}`, 'Write a dot path such as `.pr_url`, `.items[0].url` or `.items[*].url`.');
    }
    if (typeof outcome.json_path_label === 'string' && !pathProblem(outcome.json_path_label)) {
      const eachItem = typeof outcome.json_path === 'string' && !pathProblem(outcome.json_path) && takesEachItem(parseJsonPath(outcome.json_path));
      if (!eachItem || !takesEachItem(parseJsonPath(outcome.json_path_label))) {
        problem(
          'json_path_label',
          'conflicting_fields',
          'json_path_label names the items of a [*] json_path, and needs a [*] itself',
          'Use it with a json_path such as `.items[*].url` and a label path such as `.items[*].title`, or remove it.',
        );
      }
    }
  });
  return errors;
}

/** Why a JSON path cannot be read, or undefined. */
function pathProblem(path: string): string | undefined {
  try {
    parseJsonPath(path);
    return undefined;
  } catch (error) {
    if (error instanceof JsonPathError) return `is not a path: ${error.message}`;
    throw error;
  }
}
