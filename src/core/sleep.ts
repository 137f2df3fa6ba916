import { setTimeout as delay } from 'node:timers/promises';

export interface SleepOptions {
  /** Ends the wait early. */
  signal?: AbortSignal;
  /** false: the wait does not keep the process alive on its own. */
  ref?: boolean;
}

/** Waits `ms`: true once the time has passed, false the moment `signal` aborts (it never rejects). */
export async function sleep(ms: number, options: SleepOptions = {}): Promise<boolean> {
  try {
    await delay(ms, undefined, { ...(options.signal ? { signal: options.signal } : {}), ref: options.ref ?? true });
    return true;
  } catch (error) {
    if ((error as Error).name === 'AbortError') return false;
    throw error;
  }
}
