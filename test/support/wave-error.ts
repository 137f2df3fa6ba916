import { expect } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';

/** The WaveError `promise` rejects with; fails the test when it resolves or rejects with anything else. */
export async function waveErrorOf(promise: Promise<unknown>): Promise<WaveError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WaveError);
  return error as WaveError;
}
