import type { Manifest } from '../config/schema/manifest-schema.js';
import type { Contract } from '../config/schema/pipeline-schema.js';
import { goRegex } from '../contracts/test-declarations.js';
import { WaveError } from '../core/errors/errors.js';

/** The contract types that count test declarations. */
const COUNTING = new Set<Contract['type']>(['test_diff', 'test_count_baseline']);

/**
 * A test_diff or test_count_baseline contract's test files and declaration pattern: its own, else the manifest's
 * `project.test_file_pattern` / `project.test_func_pattern` (Wave declares these and never reads them); a pattern that
 * does not compile stops the plan. Other contracts come back as they are.
 */
export function withTestDeclarations(contract: Contract, project: Manifest['project'], where: string): Contract {
  if (!COUNTING.has(contract.type)) return contract;
  const files = contract.test_file_pattern ?? project?.test_file_pattern;
  const pattern = contract.test_func_pattern ?? project?.test_func_pattern;
  if (pattern !== undefined) {
    try {
      goRegex(pattern);
    } catch (error) {
      throw new WaveError('pipeline_invalid', `${where}: test_func_pattern \`${pattern}\` is not a usable regular expression: ${(error as Error).message}`, {
        hint: 'Give a regular expression matching one test declaration per line, e.g. `^\\s*(it|test)\\(`.',
      });
    }
  }
  return { ...contract, ...(files !== undefined ? { test_file_pattern: files } : {}), ...(pattern !== undefined ? { test_func_pattern: pattern } : {}) };
}
