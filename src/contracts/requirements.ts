import { DEFAULT_JUDGE_THRESHOLD } from './llm-judge-check.js';
import { testDeclarations } from './test-declarations.js';
import { DEFAULT_BASE_REF } from './test-count-baseline-check.js';
import { targetLabel, type PlannedContract } from './types.js';

/** The heading of the requirements block appended to a prompt step's prompt. */
export const REQUIREMENTS_HEADING = '## Requirements your output is checked against';

/** A test-declaration contract's test files, as the requirements name them. */
function testFiles(contract: PlannedContract): string {
  return testDeclarations(contract)
    .files.map((glob) => `\`${glob}\``)
    .join(', ');
}

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
      case 'test_diff':
        return `- Your uncommitted changes to the test files (${testFiles(c)}) may remove at most ${c.max_test_deletions ?? 0} more test declarations than they add: replace a deleted test, do not delete it.`;
      case 'test_count_baseline':
        return `- Your branch must hold at least as many test declarations in the test files (${testFiles(c)}) as ${c.base_ref || DEFAULT_BASE_REF}, less ${c.max_test_deletions ?? 0}: replace a deleted test, do not delete it.`;
    }
  });
  return lines.length ? `\n\n${REQUIREMENTS_HEADING}\n${lines.join('\n')}\n` : '';
}
