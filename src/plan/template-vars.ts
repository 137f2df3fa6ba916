import type { Step } from '../config/schema/pipeline-schema.js';
import { FORGE_TEMPLATE_VARIABLES } from '../core/forge/forge.js';

/** Where a template's values come from: a run's own values, or a dry run's placeholders. */
export interface TemplateSource {
  input: string;
  runId: string;
  pipelineName: string;
  stepId: string;
  /** `project.<key>`. */
  project(key: string): string | undefined;
  /** `artifacts.<as>`: where the injected artifact lies. */
  artifact(as: string): string | undefined;
  /** `steps.<id>.output[.<field>…]`. */
  stepOutput(stepId: string, fieldPath: string[]): string | undefined;
  /** `forge.<name>`: the project's forge, as Wave's forge variables give it. */
  forge(name: string): string | undefined;
  /** `gate.<step>.<field>`: the decision of an earlier gate step. */
  gate(stepId: string, field: GateField): string | undefined;
}

/** What a template may read of a gate's decision, as Wave names them: `choice` is the choice's label, `key` its key. */
export const GATE_FIELDS = ['choice', 'key', 'text', 'timestamp', 'target'] as const;

/** One of GATE_FIELDS. */
export type GateField = (typeof GATE_FIELDS)[number];

/** Whether `name` is one of GATE_FIELDS. */
export function isGateField(name: string | undefined): name is GateField {
  return (GATE_FIELDS as readonly (string | undefined)[]).includes(name);
}

/** The fixed variables every template may use, and where each one's value comes from. */
const BUILTINS = new Map<string, (source: TemplateSource) => string>([
  ['input', (source) => source.input],
  ['run.id', (source) => source.runId],
  ['pipeline.name', (source) => source.pipelineName],
  ['step.id', (source) => source.stepId],
]);

/** The names of the fixed variables. */
export const BUILTIN_VARIABLES: readonly string[] = [...BUILTINS.keys()];

/** Wave's bare names of the same values (ResolvePlaceholders, internal/pipeline/context.go): the run id is its pipeline_id. */
const WAVE_ALIASES = new Map([
  ['pipeline_id', 'run.id'],
  ['pipeline_name', 'pipeline.name'],
  ['step_id', 'step.id'],
]);

/** The value of the variable `name` (already checked by explainUnknownVariable) from `source`; undefined when it names none. */
export function templateValue(name: string, source: TemplateSource): string | undefined {
  const builtin = BUILTINS.get(WAVE_ALIASES.get(name) ?? name);
  if (builtin) return builtin(source);
  const [head, second, third, ...fieldPath] = name.split('.');
  if (second === undefined) return undefined;
  if (head === 'project') return source.project(second);
  if (head === 'artifacts') return source.artifact(name.slice('artifacts.'.length));
  if (head === 'steps') return source.stepOutput(second, fieldPath);
  if (head === 'forge') return source.forge(name);
  if (head === 'gate' && isGateField(third)) return source.gate(second, third);
  return undefined;
}

/** Why a reference is unknown, or undefined when the step may use it. */
export function explainUnknownVariable(
  name: string,
  step: Step,
  ancestors: ReadonlySet<string>,
  projectKeys: readonly string[],
  gates: ReadonlySet<string> = new Set(),
): string | undefined {
  if (BUILTINS.has(name) || WAVE_ALIASES.has(name)) return undefined;
  const [head, second, third, fourth] = name.split('.');
  if (head === 'project') {
    if (second && projectKeys.includes(second) && third === undefined) return undefined;
    return `\`${name}\` is not in the manifest's project block (known: ${list(projectKeys.map((k) => `project.${k}`))})`;
  }
  if (head === 'artifacts') {
    const names = (step.memory?.inject_artifacts ?? []).map((a) => a.as ?? a.artifact);
    // An artifact's `as` may itself contain dots (report.json).
    if (names.includes(name.slice('artifacts.'.length))) return undefined;
    return `\`${name}\` is not an artifact this step injects (known: ${list(names.map((n) => `artifacts.${n}`))}; run as a child, it gets those its parent's step hands over with \`config.inject\`)`;
  }
  if (head === 'steps') {
    if (second && ancestors.has(second) && third === 'output') return undefined;
    if (second && ancestors.has(second)) return `\`${name}\`: use \`steps.${second}.output\` or \`steps.${second}.output.<field>\``;
    return `\`${name}\` refers to a step that is not a dependency of \`${step.id}\` (dependencies: ${list([...ancestors])})`;
  }
  if (head === 'gate') return explainGateVariable(name, second, third, fourth, { step, ancestors, gates });
  if (head === 'forge') {
    if ((FORGE_TEMPLATE_VARIABLES as readonly string[]).includes(name)) return undefined;
    return `\`${name}\` is not a forge variable (known: ${list([...FORGE_TEMPLATE_VARIABLES])})`;
  }
  return `\`${name}\` is not a template variable (known: ${list([...BUILTIN_VARIABLES])}, project.*, artifacts.*, steps.<id>.output, forge.*, gate.<step>.*)`;
}

/** Why `gate.<second>.<third>` is unknown: it names a gate step the step depends on, and one of its decision's fields. */
function explainGateVariable(
  name: string,
  second: string | undefined,
  third: string | undefined,
  fourth: string | undefined,
  at: { step: Step; ancestors: ReadonlySet<string>; gates: ReadonlySet<string> },
): string | undefined {
  const gates = [...at.gates].filter((id) => at.ancestors.has(id));
  if (!second || !gates.includes(second)) return `\`${name}\` names no gate step \`${at.step.id}\` depends on (gates it depends on: ${list(gates)})`;
  if (!isGateField(third) || fourth !== undefined) return `\`${name}\`: a gate's decision has ${list(GATE_FIELDS.map((f) => `gate.${second}.${f}`))}`;
  return undefined;
}

function list(items: readonly string[]): string {
  return items.length ? items.join(', ') : 'none';
}
