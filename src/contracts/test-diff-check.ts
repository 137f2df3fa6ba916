import { NOT_A_WORKTREE, NOT_A_WORKTREE_HINT } from './step-git.js';
import { testDeclarations } from './test-declarations.js';
import type { CheckEnvironment, CheckResult, PlannedContract } from './types.js';

/** What to do when git cannot show the step's changes. */
const DIFF_FAILED_HINT = "Check the step's worktree and branch (`git -C <workspace> status`): the contract fails rather than pass unchecked.";

/** Added and removed lines of a unified diff that hold a test declaration (file headers left out). */
export function declarationLines(diff: string, regex: RegExp): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+') && regex.test(line.slice(1))) added++;
    else if (line.startsWith('-') && regex.test(line.slice(1))) removed++;
  }
  return { added, removed };
}

/**
 * Wave's test_diff: the step's uncommitted changes to its test files (`git diff HEAD -- <test_file_pattern>`) may remove
 * at most `max_test_deletions` (default 0) more test declarations than they add; a git error fails the contract.
 */
export async function checkTestDiff(contract: PlannedContract, env: CheckEnvironment): Promise<CheckResult> {
  if (!env.git) return { passed: false, errors: [`test_diff: ${NOT_A_WORKTREE}`, NOT_A_WORKTREE_HINT] };
  const { files, regex } = testDeclarations(contract);
  const max = contract.max_test_deletions ?? 0;
  let diff: string;
  try {
    diff = await env.git.diffFromHead(files);
  } catch (error) {
    return { passed: false, errors: [`test_diff: ${error instanceof Error ? error.message : String(error)}`, DIFF_FAILED_HINT] };
  }
  const { added, removed } = declarationLines(diff, regex);
  const net = removed - added;
  if (net <= max) return { passed: true, errors: [] };
  return {
    passed: false,
    errors: [`test_diff: net ${net} test declaration(s) removed (max allowed ${max}, removed=${removed} added=${added}); persona must replace deleted tests, not net-delete them`],
  };
}
