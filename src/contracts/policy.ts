import type { ContractAction, PlannedContract } from './types.js';

/** Contract retries when a `retry` contract names no max_retries. */
export const DEFAULT_CONTRACT_RETRIES = 2;

/** Rework rounds when a `rework` contract names no max_retries (Wave's: one rework). */
export const DEFAULT_REWORK_ROUNDS = 1;

/**
 * What a step does about one contract's result. `retry` re-runs the step while the contract has retries left,
 * then fails; `rework` runs its rework step while it has rounds left, then fails. `skip` passes the step and
 * stops checking; `warn` passes and goes on; `continue` fails the step but lets its dependents run; `fail` fails
 * it; `rejected` ends it, and the run, rejected. `used` counts the contract's retries or rework rounds so far.
 */
export function contractAction(contract: PlannedContract, passed: boolean, used: number): ContractAction {
  if (passed) return 'pass';
  const policy = contractPolicy(contract);
  if (policy === 'retry') return used < (contract.max_retries ?? DEFAULT_CONTRACT_RETRIES) ? 'retry' : 'fail';
  if (policy === 'rework') return used < reworkRounds(contract) ? 'rework' : 'fail';
  return policy;
}

/** How many rework rounds a `rework` contract allows: its max_retries, at least one. */
export function reworkRounds(contract: Pick<PlannedContract, 'max_retries'>): number {
  return Math.max(1, contract.max_retries ?? DEFAULT_REWORK_ROUNDS);
}

/** The contract's on_failure as it applies: Wave's `must_pass: false` is a contract that only warns unless on_failure says otherwise. */
export function contractPolicy(contract: Pick<PlannedContract, 'on_failure' | 'must_pass'>): NonNullable<PlannedContract['on_failure']> {
  return contract.on_failure ?? (contract.must_pass === false ? 'warn' : 'fail');
}

/** True when the action ends the checking of this attempt's contracts. */
export function stopsChecking(action: ContractAction): boolean {
  return action !== 'pass' && action !== 'warn';
}
