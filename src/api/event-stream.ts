import type { RunEvent } from '../events.js';

/** A run's events kept in order, so every iteration, however late it starts, sees all of them and then ends with the run. */
export class EventStream implements AsyncIterable<RunEvent> {
  private readonly events: RunEvent[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private readonly waiting = new Set<() => void>();

  /** Adds the next event of the run. */
  push(event: RunEvent): void {
    this.events.push(event);
    this.wake();
  }

  /** The run is over: iterations end once they have read every event, throwing `error` when the run threw one. */
  end(error?: { error: unknown }): void {
    this.ended = true;
    this.failure = error;
    this.wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    let next = 0;
    for (;;) {
      if (next < this.events.length) yield this.events[next++] as RunEvent;
      else if (this.ended) break;
      else await new Promise<void>((resolve) => this.waiting.add(resolve));
    }
    if (this.failure) throw this.failure.error;
  }

  private wake(): void {
    for (const resolve of this.waiting) resolve();
    this.waiting.clear();
  }
}
