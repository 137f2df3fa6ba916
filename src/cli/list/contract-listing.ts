import { ContractSchema } from '../../config/schema/pipeline-schema.js';

/** The contract types this version runs, each with what it checks. */
export type ContractType = (typeof ContractSchema.shape.type.options)[number];

const WHAT: Record<ContractType, string> = {
  json_schema: 'the file (or the output) parses as JSON and matches a JSON Schema; broken JSON is recovered when it can be',
  test_suite: 'a shell command exits 0 (its folder: the workspace, project_root or a path; {{ project.<key> }} filled in)',
  non_empty_file: 'the file (or the output) exists and is not empty',
  llm_judge: 'a model scores the output against criteria; it passes at or above the threshold (default 0.7)',
  agent_review: "a reviewer persona reads criteria, the step's diff and artifacts, and gives a verdict: pass and warn pass, fail fails",
  test_diff: "the step's uncommitted changes to its test files remove no more test declarations than they add (max_test_deletions allows some)",
  test_count_baseline: "the step's branch holds no fewer test declarations than base_ref (default HEAD~1; max_test_deletions allows some)",
};

/** One contract type as `wave list contracts` shows it. */
export interface ContractListing {
  type: ContractType;
  checks: string;
}

/** Every contract type this version runs, in the schema's order. */
export function listContracts(): ContractListing[] {
  return ContractSchema.shape.type.options.map((type) => ({ type, checks: WHAT[type] }));
}
