import { describe, expect, it } from 'vitest';
import { PendingCleanups } from '../../src/sandbox/pending-cleanups.js';

/** A promise and the function that resolves or rejects it. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

describe('the clean-ups an ended attempt leaves to the end of the run', () => {
  it('settles only once every clean-up has finished, one added while it waits included', async () => {
    const cleanups = new PendingCleanups();
    const first = deferred();
    const second = deferred();
    cleanups.add(first.promise);
    let settled = false;
    const settling = cleanups.settle().then(() => (settled = true));
    cleanups.add(second.promise);
    first.resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    second.resolve();
    await settling;
    expect(settled).toBe(true);
  });

  it('drops a clean-up that fails: settle still resolves, and no rejection goes unhandled', async () => {
    const cleanups = new PendingCleanups();
    const failing = deferred();
    cleanups.add(failing.promise);
    failing.reject(new Error('EBUSY'));
    await expect(cleanups.settle()).resolves.toBeUndefined();
  });

  it('settles at once when nothing is pending', async () => {
    await expect(new PendingCleanups().settle()).resolves.toBeUndefined();
  });
});
