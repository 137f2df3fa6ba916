import type { WaveError } from '../core/errors/errors.js';

/** The first fault of a run folder's writes, kept and told once to each listener (the executor stops the run on it). */
export class FaultLatch {
  private first: WaveError | undefined;
  private readonly listeners = new Set<(fault: WaveError) => void>();

  /** The first fault reported; undefined while all is well. */
  get fault(): WaveError | undefined {
    return this.first;
  }

  /** Calls `listener` once with the first fault (at once when there is one already); returns the unsubscribe function. */
  onFault(listener: (fault: WaveError) => void): () => void {
    if (this.first) {
      listener(this.first);
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps `fault` if it is the first and tells the listeners; returns it either way. */
  report(fault: WaveError): WaveError {
    if (this.first) return fault;
    this.first = fault;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener(fault);
    return fault;
  }
}
