import type { PlannedStep } from '../plan/plan-types.js';
import { renderTemplate, shellQuote } from '../plan/templates.js';
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
}

/** Renders a step's prompt (or command, with every value shell-quoted) from the run's values. */
export function renderStepTemplate(step: PlannedStep, template: string, values: TemplateValues): string {
  const lookup = (name: string): string | undefined => {
    const [head, second, , ...rest] = name.split('.');
    if (name === 'input') return values.input;
    if (name === 'run.id') return values.runId;
    if (name === 'pipeline.name') return values.pipelineName;
    if (name === 'step.id') return step.id;
    if (head === 'project') return values.project[second!];
    if (head === 'artifacts') return values.artifacts[name.slice('artifacts.'.length)];
    if (head === 'steps') return outputValue(second!, values.outputs.get(second!) ?? '', rest);
    return undefined;
  };
  return renderTemplate(template, lookup, step.execType === 'command' ? shellQuote : undefined);
}
