import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isGateField } from '../../plan/template-vars.js';
import { renderTemplate } from '../../plan/templates.js';
import { gateValue } from './gate-values.js';
import type { RunContext } from '../run/context.js';
import type { RunRecord } from '../../state/record/run-record.js';

/**
 * A composition field (a child's input and name, and later an iterate's `over`, an aggregate's `from`, a branch's `on`)
 * resolved as Wave resolves it: `{{ <step>.out.<artifact>[.<field>…] }}`, `{{ <step>.output[.<field>…] }}` and
 * `{{ steps.<step>.output }}`, then `{{ input }}`, the run's names, `{{ project.<key> }}` and `{{ env.<key> }}`. What
 * names nothing known stays as written (Wave's pipelines rely on it: an unset `{{ env.profile }}` takes a branch's default).
 * `item` gives an iterate step's item values.
 */
export function resolveCompositionText(
  context: RunContext,
  stepId: string,
  text: string,
  outputs: ReadonlyMap<string, string>,
  item?: (name: string) => string | undefined,
): string {
  const { plan, store } = context;
  const env = store.record.options.env ?? {};
  const fixed: Record<string, string> = {
    input: plan.input,
    'run.id': store.record.id,
    pipeline_id: store.record.id,
    'pipeline.name': plan.pipelineName,
    pipeline_name: plan.pipelineName,
    'step.id': stepId,
    step_id: stepId,
  };
  return renderTemplate(text, (name) => {
    // An iterate step's `{{ item… }}` and `{{ iteration }}`, in the same pass: a value never brings a reference of its own.
    const itemValue = item?.(name);
    if (itemValue !== undefined) return itemValue;
    if (Object.hasOwn(fixed, name)) return fixed[name];
    const [head, ...rest] = name.split('.');
    if (head === 'project' && rest.length === 1) return plan.project[rest[0]!];
    if (head === 'env' && rest.length === 1) return env[rest[0]!];
    if (head === 'gate' && rest.length === 2 && isGateField(rest[1])) return gateValue(store.record, rest[0]!, rest[1]);
    return stepReference(store, name, outputs) ?? enclosingReference(context, name);
  });
}

/** A reference to a step of the run around a loop iteration (none of the iteration's own): what that run resolves. */
function enclosingReference(context: RunContext, name: string): string | undefined {
  const [head, second] = name.split('.');
  const stepId = head === 'steps' ? second : head;
  if (!context.enclosing || context.plan.steps.some((step) => step.id === stepId)) return undefined;
  return context.enclosing(name);
}

/** A run's steps as step references read them: its record and its folder. */
export interface RecordedSteps {
  readonly record: RunRecord;
  readonly dir: string;
}

/** `{{ <step>.output[.<field>…] }}`, `{{ steps.<step>.output… }}` or `{{ <step>.out.<artifact>[.<field>…] }}` of a run's steps; undefined for any other name. */
export function stepReference(steps: RecordedSteps, name: string, outputs: ReadonlyMap<string, string>): string | undefined {
  const [head, ...rest] = name.split('.');
  if (head === 'steps' && rest[1] === 'output') return stepValue(steps, rest[0]!, rest.slice(2), outputs);
  if (head && rest[0] === 'output') return stepValue(steps, head, rest.slice(1), outputs);
  if (head && rest[0] === 'out') return artifactValue(steps, head, rest.slice(1));
  return undefined;
}

/** `{{ <step>.output }}`: the step's first saved artifact (a child's or iterate's collection included), else its output text; a field of it when asked. */
function stepValue(steps: RecordedSteps, stepId: string, fieldPath: string[], outputs: ReadonlyMap<string, string>): string | undefined {
  const first = steps.record.steps[stepId]?.artifacts[0];
  const text = first ? readArtifact(steps, first.path) : outputs.get(stepId);
  return text === undefined ? undefined : fieldOf(text, fieldPath);
}

/** `{{ <step>.out.<artifact>[.<field>…] }}`: the longest artifact name of the step that the path starts with, then a field of it. */
function artifactValue(steps: RecordedSteps, stepId: string, path: string[]): string | undefined {
  const artifacts = steps.record.steps[stepId]?.artifacts ?? [];
  for (let length = path.length; length > 0; length--) {
    const name = path.slice(0, length).join('.');
    const saved = artifacts.find((artifact) => artifact.name === name);
    if (!saved) continue;
    const text = readArtifact(steps, saved.path);
    return text === undefined ? undefined : fieldOf(text, path.slice(length));
  }
  return undefined;
}

function readArtifact(steps: RecordedSteps, path: string): string | undefined {
  try {
    return readFileSync(join(steps.dir, path), 'utf8');
  } catch {
    return undefined;
  }
}

/** A field of JSON text as Wave gives it: a string raw, anything else as compact JSON; the whole text for no field; `null` or absent: none. */
export function fieldOf(text: string, fieldPath: readonly string[]): string | undefined {
  if (fieldPath.length === 0) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  for (const key of fieldPath) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === null || value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
