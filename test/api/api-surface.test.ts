import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { exportedNames } from './exported-names.js';

const ENTRY = join(ROOT, 'src', 'api', 'index.ts');
const SURFACE = join(ROOT, 'src', 'api', 'api-surface.txt');

/** The `<name> <kind>` lines of api-surface.txt, without its comments. */
function listed(): string[] {
  return readFileSync(SURFACE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

describe('the public API surface', () => {
  it('is exactly what src/api/api-surface.txt lists: a change to the exports changes the list too', () => {
    const actual = exportedNames(ENTRY);
    const expected = listed();
    const added = actual.filter((line) => !expected.includes(line));
    const removed = expected.filter((line) => !actual.includes(line));
    // Named in the failure: what to add to the list (or not export), and what the exports lost.
    expect({ exportedButNotListed: added, listedButNotExported: removed }).toEqual({ exportedButNotListed: [], listedButNotExported: [] });
    expect(actual).toEqual([...expected].sort());
  }, 60_000);

  it('lists as values (functions, classes, constants) exactly what the module exports at run time', async () => {
    const values = listed()
      .filter((line) => /\s(function|class|const)$/.test(line))
      .map((line) => line.split(' ')[0]);
    const module = (await import('../../src/api/index.js')) as Record<string, unknown>;
    expect(Object.keys(module).sort()).toEqual(values.sort());
  });
});
