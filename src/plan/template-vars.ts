import type { Step } from '../config/pipeline-schema.js';

/** The fixed variables every template may use. */
export const BUILTIN_VARIABLES = ['input', 'run.id', 'pipeline.name', 'step.id'] as const;

/** Why a reference is unknown, or undefined when the step may use it. */
export function explainUnknownVariable(
  name: string,
  step: Step,
  ancestors: ReadonlySet<string>,
  projectKeys: readonly string[],
): string | undefined {
  if ((BUILTIN_VARIABLES as readonly string[]).includes(name)) return undefined;
  const [head, second, third] = name.split('.');
  if (head === 'project') {
    if (second && projectKeys.includes(second) && third === undefined) return undefined;
    return `\`${name}\` is not in the manifest's project block (known: ${list(projectKeys.map((k) => `project.${k}`))})`;
  }
  if (head === 'artifacts') {
    const names = (step.memory?.inject_artifacts ?? []).map((a) => a.as ?? a.artifact);
    // An artifact's `as` may itself contain dots (report.json).
    if (names.includes(name.slice('artifacts.'.length))) return undefined;
    return `\`${name}\` is not an artifact this step injects (known: ${list(names.map((n) => `artifacts.${n}`))})`;
  }
  if (head === 'steps') {
    if (second && ancestors.has(second) && third === 'output') return undefined;
    if (second && ancestors.has(second)) return `\`${name}\`: use \`steps.${second}.output\` or \`steps.${second}.output.<field>\``;
    return `\`${name}\` refers to a step that is not a dependency of \`${step.id}\` (dependencies: ${list([...ancestors])})`;
  }
  return `\`${name}\` is not a template variable (known: ${list([...BUILTIN_VARIABLES])}, project.*, artifacts.*, steps.<id>.output)`;
}

function list(items: readonly string[]): string {
  return items.length ? items.join(', ') : 'none';
}
