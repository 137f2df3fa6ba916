/** The commands that start or stop runs: each sweeps first, so what a killed Wave left never piles up. */
const SWEEPING: ReadonlySet<string> = new Set(['run', 'resume', 'cancel']);

/** Sweeps the leftovers of gone Wave processes before `command` when it starts or stops runs; no other command loads the sweep. */
export async function sweepBefore(command: string): Promise<void> {
  if (SWEEPING.has(command)) await (await import('../sandbox/leftovers.js')).sweepLeftovers();
}
