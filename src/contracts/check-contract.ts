import { checkAgentReview } from './agent-review/agent-review-check.js';
import { checkJsonSchema } from './json-schema-check.js';
import { checkLlmJudge } from './llm-judge-check.js';
import { checkNonEmptyFile } from './non-empty-file-check.js';
import { checkTestCountBaseline } from './test-count-baseline-check.js';
import { checkTestDiff } from './test-diff-check.js';
import { checkTestSuite } from './test-suite-check.js';
import type { CheckEnvironment, CheckResult, PlannedContract } from './types.js';

/** Runs one contract of any type; never throws (a crash is a failed check saying why). */
export async function checkContract(contract: PlannedContract, env: CheckEnvironment): Promise<CheckResult> {
  try {
    switch (contract.type) {
      case 'json_schema':
        return checkJsonSchema(contract.schemaObject ?? {}, env.target);
      case 'non_empty_file':
        return checkNonEmptyFile(env.target);
      case 'test_suite':
        return await checkTestSuite(contract, env);
      case 'llm_judge':
        return await checkLlmJudge(contract, env);
      case 'agent_review':
        return await checkAgentReview(contract, env);
      case 'test_diff':
        return await checkTestDiff(contract, env);
      case 'test_count_baseline':
        return await checkTestCountBaseline(contract, env);
    }
  } catch (error) {
    return { passed: false, errors: [`the ${contract.type} check failed to run: ${error instanceof Error ? error.message : String(error)}`] };
  }
}
