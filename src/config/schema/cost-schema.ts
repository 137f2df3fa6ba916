import { z } from 'zod';

/** Wave's `runtime.cost` (internal/manifest/types.go CostConfig): amounts in US dollars per run; 0 or unset turns a limit off. */
export const CostSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .optional()
      .describe("Wave's switch of its cost ledger: costs are always recorded here; with it, warn_at warns even when no budget_ceiling is set (as in Wave)."),
    budget_ceiling: z
      .number()
      .nonnegative()
      .optional()
      .describe(
        "The most a run may cost, in US dollars (a resumed run's earlier spending counts): once reached, no new step starts and running ones are stopped; the run fails with budget_exhausted. 0 = no limit.",
      ),
    warn_at: z
      .number()
      .nonnegative()
      .optional()
      .describe('The cost, in US dollars (an amount, not a fraction of the ceiling), at which the run warns once (a budget_warning event). 0 = no warning.'),
    currency: z.string().optional().describe('Only USD: the CLIs, the manifest prices and the public price table are all in US dollars (another currency is refused by name).'),
  })
  .describe("Cost budget of one run; a step's cost comes from its CLI, else the adapter's `prices`, else the public price table, and is counted live while the step runs.");
