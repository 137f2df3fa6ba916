import { WaveError, WaveErrors } from '../core/errors/errors.js';

/** Several problems found at once (a manifest or pipeline with more than one): a WaveError whose code, message and location are the first's. */
export class WaveProblems extends WaveError {
  /** Every problem, the first included, each with its code, location and hint. */
  readonly problems: readonly WaveError[];

  constructor(problems: readonly WaveError[]) {
    const [first] = problems;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    super(first?.code ?? 'pipeline_invalid', `${first?.message ?? 'invalid configuration'}${more}`, { hint: first?.hint, location: first?.location, cause: first });
    this.name = 'WaveProblems';
    this.problems = problems;
  }
}

/** What the API throws: a WaveError as it is, several as one WaveProblems; anything else (a fault of Wave itself) unchanged. */
export function apiError(error: unknown): unknown {
  if (error instanceof WaveErrors) return error.errors.length === 1 ? error.errors[0] : new WaveProblems(error.errors);
  return error;
}

/** Runs `work`, throwing what it throws as apiError says. */
export async function withApiErrors<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw apiError(error);
  }
}
