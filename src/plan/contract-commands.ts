import type { Pipeline, Step } from '../config/schema/pipeline-schema.js';
import { WaveError } from '../core/errors/errors.js';
import type { Located } from '../config/load/load.js';
import { explainUnknownVariable } from './template-vars.js';
import { renderTemplate, templateReferences } from './templates.js';

const PROJECT_PREFIX = 'project.';

/**
 * A test_suite command with its `{{ project.<key> }}` filled in as text: the project block holds the project's own
 * command lines (Wave's `contract_test_command`), written by whoever writes the commands, and is meant to run as one.
 */
export function fillContractCommand(command: string, project: Readonly<Record<string, string>>): string {
  return renderTemplate(command, (name) => (name.startsWith(PROJECT_PREFIX) ? project[name.slice(PROJECT_PREFIX.length)] : undefined));
}

/** The templates of a step's test_suite commands that name no project setting, each at its command. */
export function contractCommandProblems(step: Step, index: number, pipeline: Located<Pipeline>, projectKeys: readonly string[]): WaveError[] {
  const listed = step.handover?.contracts;
  const contracts = listed ? listed.map((c, i) => [c, ['contracts', i]] as const) : step.handover?.contract ? [[step.handover.contract, ['contract']] as const] : [];
  const problems: WaveError[] = [];
  for (const [contract, path] of contracts) {
    if (contract.type !== 'test_suite' || contract.validate === false || contract.command === undefined) continue;
    for (const ref of templateReferences(contract.command)) {
      const why = ref.name.startsWith(PROJECT_PREFIX)
        ? explainUnknownVariable(ref.name, step, new Set(), projectKeys)
        : `\`${ref.name}\` is not a project setting: a test_suite command takes only {{ project.<key> }}`;
      if (!why) continue;
      problems.push(
        new WaveError('template_invalid', `unknown template variable in a test_suite command of step \`${step.id}\`: ${why}`, {
          location: pipeline.locate(['steps', index, 'handover', ...path, 'command']),
          hint: "Name a key of the manifest's project block, or run the check as a command step that gets the value.",
        }),
      );
    }
  }
  return problems;
}
