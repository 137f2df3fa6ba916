import { DEFAULT_JUDGE_THRESHOLD } from './llm-judge-check.js';
import { targetLabel, type PlannedContract } from './types.js';

/** The heading of the requirements block appended to a prompt step's prompt. */
export const REQUIREMENTS_HEADING = '## Requirements your output is checked against';

/** The text telling the agent what its output will be checked against; empty without contracts. */
export function contractRequirements(contracts: readonly PlannedContract[]): string {
  const lines = contracts.map((c) => {
    switch (c.type) {
      case 'json_schema':
        return [
          `- ${c.target.kind === 'output' ? 'Your final answer must be' : `Write \`${c.target.path}\` containing`} JSON only, valid against this JSON Schema:`,
          '```json',
          JSON.stringify(c.schemaObject ?? {}, null, 2),
          '```',
        ].join('\n');
      case 'non_empty_file':
        return c.target.kind === 'output' ? '- Your final answer must not be empty.' : `- The file \`${c.target.path}\` must exist and must not be empty.`;
      case 'test_suite':
        return `- The command \`${c.command ?? ''}\` will run in the ${c.dir === 'project_root' ? 'project root' : c.dir && c.dir !== 'workspace' ? `folder ${c.dir}` : 'workspace'} and must exit with code 0.`;
      case 'llm_judge':
        return [
          `- A reviewer will score ${targetLabel(c.target)} from 0 to 1 (passing: ${c.threshold ?? DEFAULT_JUDGE_THRESHOLD}) against:`,
          ...(c.criteria ?? []).map((x) => `  - ${x}`),
        ].join('\n');
      case 'agent_review':
        return `- A separate reviewer (persona \`${c.persona ?? ''}\`) will review your work against ${c.criteria_path ? `the criteria in \`${c.criteria_path}\`` : `these criteria:\n${(c.criteria ?? []).map((line) => `  - ${line}`).join('\n')}\n `} and return a verdict (pass, fail or warn); a fail verdict fails this check.`;
    }
  });
  return lines.length ? `\n\n${REQUIREMENTS_HEADING}\n${lines.join('\n')}\n` : '';
}
