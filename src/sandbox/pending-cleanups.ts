/**
 * Clean-ups of ended attempts (a removed folder, a stopped proxy, a removed cgroup or container) that need not hold
 * up their step, only the end of the run: they run in the background and close() waits for them.
 */
export class PendingCleanups {
  private readonly pending = new Set<Promise<void>>();

  /** Runs `cleanup` in the background; a failure is dropped, as every clean-up here is best effort. */
  add(cleanup: Promise<unknown>): void {
    const running: Promise<void> = cleanup.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(running);
    void running.then(() => this.pending.delete(running));
  }

  /** Resolves once every clean-up added so far, and any added meanwhile, has finished; never rejects. */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
