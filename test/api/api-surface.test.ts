import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { exportedNames } from './exported-names.js';

const SURFACE = join(ROOT, 'src', 'api', 'api-surface.txt');
/** Each entry of package.json `exports` and its source. */
const ENTRIES = { 'wave-pipelines': 'index', 'wave-pipelines/adapter': 'adapter' } as const;
/** Each entry's module, loaded from its source. */
const LOAD: Record<keyof typeof ENTRIES, () => Promise<Record<string, unknown>>> = {
  'wave-pipelines': () => import('../../src/api/index.js'),
  'wave-pipelines/adapter': () => import('../../src/api/adapter.js'),
};

/** The `<name> <kind>` lines api-surface.txt lists under `[entry]`, without its comments. */
function listed(entry: keyof typeof ENTRIES): string[] {
  const lines = readFileSync(SURFACE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const start = lines.indexOf(`[${entry}]`);
  if (start === -1) return [];
  const end = lines.findIndex((line, at) => at > start && line.startsWith('['));
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

describe.each(Object.entries(ENTRIES) as Array<[keyof typeof ENTRIES, string]>)('the public API surface of %s', (entry, source) => {
  it('is exactly what src/api/api-surface.txt lists: a change to the exports changes the list too', () => {
    const actual = exportedNames(join(ROOT, 'src', 'api', `${source}.ts`));
    const expected = listed(entry);
    const added = actual.filter((line) => !expected.includes(line));
    const removed = expected.filter((line) => !actual.includes(line));
    // Named in the failure: what to add to the list (or not export), and what the exports lost.
    expect({ exportedButNotListed: added, listedButNotExported: removed }).toEqual({ exportedButNotListed: [], listedButNotExported: [] });
    expect(actual).toEqual([...expected].sort());
  }, 60_000);

  it('lists as values (functions, classes, constants) exactly what the module exports at run time', async () => {
    const values = listed(entry)
      .filter((line) => /\s(function|class|const)$/.test(line))
      .map((line) => line.split(' ')[0]);
    const module = await LOAD[entry]();
    expect(Object.keys(module).sort()).toEqual(values.sort());
  });
});
