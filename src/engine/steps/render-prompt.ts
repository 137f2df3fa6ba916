import type { AttemptStep } from '../../plan/plan-types.js';
import { templateValue, type GateField, type TemplateSource } from '../../plan/template-vars.js';
import { shellContexts } from '../../plan/shell-context.js';
import { renderTemplate, templateReferences } from '../../plan/templates.js';
import { valueReferenceIn } from './command-value-reference.js';
import { outputValue } from './step-output.js';

export interface TemplateValues {
  runId: string;
  pipelineName: string;
  input: string;
  project: Readonly<Record<string, string>>;
  /** as -> absolute path in this step's workspace. */
  artifacts: Readonly<Record<string, string>>;
  /** step id -> its output text. */
  outputs: ReadonlyMap<string, string>;
  /** `forge.<name>` -> its value for the project's forge. */
  forge: Readonly<Record<string, string>>;
  /** `gate.<step>.<field>` -> the value of an earlier gate's decision. */
  gate: (stepId: string, field: GateField) => string | undefined;
}

/** A command step's text with references in place of its values, and the values, slot n at index n - 1. */
export interface RenderedCommand {
  command: string;
  values: string[];
}

/** Renders a prompt (or a branch name) from the run's values, each inserted once as it is. */
export function renderStepTemplate(step: AttemptStep, template: string, values: TemplateValues): string {
  return renderTemplate(template, lookupIn(step, values));
}

/**
 * Renders a command step: each value becomes a reference to a shell variable (`"$WAVE_VALUE_n"`, one slot per
 * variable name, written for the quotes or heredoc it sits in) and is returned apart, so no value's text is ever
 * part of what the shell parses.
 */
export function renderStepCommand(step: AttemptStep, template: string, values: TemplateValues): RenderedCommand {
  const slots = new Map<string, number>();
  const list: string[] = [];
  const refs = templateReferences(template);
  const contexts = new Map(shellContexts(template, refs).map((context, index) => [refs[index]!.offset, context]));
  const command = renderTemplate(template, lookupIn(step, values), (value, name, offset) => {
    let slot = slots.get(name);
    if (slot === undefined) {
      slot = list.push(value);
      slots.set(name, slot);
    }
    return valueReferenceIn(slot, contexts.get(offset));
  });
  return { command, values: list };
}

function lookupIn(step: AttemptStep, values: TemplateValues): (name: string) => string | undefined {
  const source: TemplateSource = {
    input: values.input,
    runId: values.runId,
    pipelineName: values.pipelineName,
    stepId: step.id,
    project: (key) => values.project[key],
    artifact: (as) => values.artifacts[as],
    stepOutput: (id, fieldPath) => outputValue(id, values.outputs.get(id) ?? '', fieldPath),
    forge: (name) => values.forge[name],
    gate: values.gate,
  };
  return (name) => templateValue(name, source);
}
