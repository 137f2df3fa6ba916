import type { CheckResult, ContractTarget } from './types.js';

/** Passes when the target exists and holds more than whitespace. */
export function checkNonEmptyFile(target: ContractTarget): CheckResult {
  if (target.text === undefined) return { passed: false, errors: [`${target.label} does not exist`] };
  if (!target.text.trim()) return { passed: false, errors: [`${target.label} is empty`] };
  return { passed: true, errors: [] };
}
