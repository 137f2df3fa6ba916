import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Whether `what`, which some tests need from the machine (a CLI, a daemon), is there. When it is not, those tests
 * are skipped with `remedy` as the reason, except under CI=true, where its absence is an error: a green CI must
 * not hide a missing install step.
 */
export function requirementMet(what: string, met: boolean, remedy: string): boolean {
  if (met) return true;
  const message = `${what} is not available: ${remedy}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`skipping the tests that need ${what}: ${message}`);
  return false;
}

/** The first executable named `name` on PATH, if any. */
export function findOnPath(name: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, name))
    .find((file) => existsSync(file));
}
