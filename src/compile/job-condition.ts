/** One dependency of a job: its job id and whether its job may fail without stopping this one. */
export interface NeededJob {
  jobId: string;
  /** The step is optional, or a contract with `on_failure: continue` may fail it and still let its dependents run. */
  mayFail: boolean;
}

/**
 * The `if:` of a step's job, or undefined for a step without dependencies. `!cancelled()` replaces GitHub's
 * implicit `success()`, which would also stop at an optional step's failed job; then each dependency decides:
 * a required one must have succeeded (its job fails when its step fails, and is skipped when its own needs
 * stopped it), one that may fail may also have failed. For a step with a `continue` contract the job alone cannot
 * tell that contract's failure from another, so the dependent's `wave run` decides from the dependency's part: it
 * runs, or records itself skipped. A step that failed with `retry.on_failure: skip` likewise leaves a successful
 * job and a part saying `skipped`: its dependents' jobs run and record themselves skipped, as `wave run` does.
 */
export function jobCondition(needs: readonly NeededJob[]): string | undefined {
  if (needs.length === 0) return undefined;
  const checks = needs.map(({ jobId, mayFail }) => (mayFail ? `(needs.${jobId}.result == 'success' || needs.${jobId}.result == 'failure')` : `needs.${jobId}.result == 'success'`));
  return `\${{ !cancelled() && ${checks.join(' && ')} }}`;
}
