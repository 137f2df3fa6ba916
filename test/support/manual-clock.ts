import type { Clock, Timer } from '../../src/core/clock.js';

interface Pending {
  at: number;
  fire: () => void;
}

/** A clock that moves only when the test says: `advance(ms)` fires, in order, every timer and sleep that falls due. */
export class ManualClock implements Clock {
  private time = Date.parse('2026-01-01T00:00:00.000Z');
  private readonly pending = new Set<Pending>();

  now(): number {
    return this.time;
  }

  timer(ms: number, fire: () => void): Timer {
    let entry = this.schedule(ms, fire);
    return {
      cancel: () => void this.pending.delete(entry),
      restart: (next) => {
        this.pending.delete(entry);
        entry = this.schedule(next, fire);
      },
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve(false);
      const entry = this.schedule(ms, () => resolve(true));
      signal?.addEventListener('abort', () => (this.pending.delete(entry), resolve(false)), { once: true });
    });
  }

  /** How many timers and sleeps are waiting. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Moves time on by `ms`, firing what falls due in order. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const next = [...this.pending].filter((p) => p.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.pending.delete(next);
      this.time = next.at;
      next.fire();
    }
    this.time = until;
  }

  private schedule(ms: number, fire: () => void): Pending {
    const entry = { at: this.time + ms, fire };
    this.pending.add(entry);
    return entry;
  }
}
