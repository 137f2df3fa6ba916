/** One dependency of a job: its job id and whether its step is optional. */
export interface NeededJob {
  jobId: string;
  optional: boolean;
}

/**
 * The `if:` of a step's job, or undefined for a step without dependencies. `!cancelled()` replaces GitHub's
 * implicit `success()`, which would also stop at an optional step's failed job; then each dependency decides:
 * a required one must have succeeded (its job fails when its step fails, and is skipped when its own needs
 * stopped it), an optional one may also have failed. A step that failed with `retry.on_failure: skip` leaves a
 * successful job and a part saying `skipped`: its dependents' jobs run and record themselves skipped, as `wave run` does.
 */
export function jobCondition(needs: readonly NeededJob[]): string | undefined {
  if (needs.length === 0) return undefined;
  const checks = needs.map(({ jobId, optional }) =>
    optional ? `(needs.${jobId}.result == 'success' || needs.${jobId}.result == 'failure')` : `needs.${jobId}.result == 'success'`,
  );
  return `\${{ !cancelled() && ${checks.join(' && ')} }}`;
}
