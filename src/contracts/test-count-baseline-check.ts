import type { StepGit } from './step-git.js';
import { NOT_A_WORKTREE, NOT_A_WORKTREE_HINT } from './step-git.js';
import { countDeclarations, matchesAnyGlob, testDeclarations } from './test-declarations.js';
import type { CheckEnvironment, CheckResult, PlannedContract } from './types.js';

/** The ref the step's branch is compared with when the contract names none: its commit before the last. */
export const DEFAULT_BASE_REF = 'HEAD~1';

/** What to do when git cannot read one of the two commits. */
const COUNT_FAILED_HINT = 'Check that base_ref names a commit of the repository the step branch has (default HEAD~1): the contract fails rather than pass unchecked.';

/** The test declarations in the test files of `ref`'s commit; blobs shared between the two commits are read once. */
async function declarationsAt(git: StepGit, ref: string, globs: readonly string[], count: (blob: string) => Promise<number>): Promise<number> {
  const files = (await git.filesOf(await git.commitOf(ref))).filter((file) => matchesAnyGlob(file.path, globs));
  let total = 0;
  for (const file of files) total += await count(file.blob);
  return total;
}

/**
 * Wave's test_count_baseline: the step branch's commit may hold at most `max_test_deletions` (default 0) fewer test
 * declarations in its test files than `base_ref` (default HEAD~1); a git error fails the contract.
 */
export async function checkTestCountBaseline(contract: PlannedContract, env: CheckEnvironment): Promise<CheckResult> {
  const { git } = env;
  if (!git) return { passed: false, errors: [`test_count_baseline: ${NOT_A_WORKTREE}`, NOT_A_WORKTREE_HINT] };
  const { files, regex } = testDeclarations(contract);
  const baseRef = contract.base_ref || DEFAULT_BASE_REF;
  const max = contract.max_test_deletions ?? 0;
  const counted = new Map<string, Promise<number>>();
  const count = (blob: string) => {
    let known = counted.get(blob);
    if (!known) counted.set(blob, (known = git.blobText(blob).then((text) => countDeclarations(text, regex))));
    return known;
  };
  let head: number;
  let base: number;
  try {
    head = await declarationsAt(git, 'HEAD', files, count);
    base = await declarationsAt(git, baseRef, files, count);
  } catch (error) {
    return { passed: false, errors: [`test_count_baseline: ${error instanceof Error ? error.message : String(error)}`, COUNT_FAILED_HINT] };
  }
  const net = base - head;
  if (net <= max) return { passed: true, errors: [] };
  return {
    passed: false,
    errors: [
      `test_count_baseline: HEAD has ${head} test declarations vs ${baseRef}=${base} (net deletion ${net}, max allowed ${max}); persona must replace removed tests, not net-delete them across commits`,
    ],
  };
}
