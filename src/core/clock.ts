import { sleep } from './sleep.js';

/** A timer a Clock started: it can be cancelled, or restarted to fire `ms` from now. */
export interface Timer {
  cancel(): void;
  restart(ms: number): void;
}

/**
 * Time where it decides an outcome (an attempt's time limit, the stall watchdog, a retry's wait): the system's, or one
 * a test or a replay drives.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fire` once, `ms` from now, unless cancelled first. */
  timer(ms: number, fire: () => void): Timer;
  /** Waits `ms`: true once the time has passed, false the moment `signal` aborts (it never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<boolean>;
}

/** The system's clock. */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  timer(ms, fire) {
    let handle = setTimeout(fire, ms);
    let duration = ms;
    return {
      cancel: () => clearTimeout(handle),
      restart(next) {
        // The common case (the same window again, once per stream event) moves the timer without making a new one.
        if (next === duration) return void handle.refresh();
        clearTimeout(handle);
        handle = setTimeout(fire, (duration = next));
      },
    };
  },
  sleep: (ms, signal) => sleep(ms, signal ? { signal } : {}),
};
