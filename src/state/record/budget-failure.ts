import type { Failure } from '../../core/errors/failure.js';

/** Dollars as Wave's ledger summary prints them. */
export function usd(amount: number): string {
  return `$${amount.toFixed(amount < 1 ? 4 : 2)}`;
}

/** Why a run stopped at its budget_ceiling, having spent `spentUsd`. */
export function budgetExhaustedFailure(spentUsd: number, ceilingUsd: number): Failure {
  return {
    class: 'budget_exhausted',
    message: `the run has spent ${usd(spentUsd)}, reaching its budget_ceiling of ${usd(ceilingUsd)}`,
    hint: 'Raise runtime.cost.budget_ceiling in wave.yaml, then `wave resume` the run (what it spent so far still counts).',
  };
}
