import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages } from '../support/markdown.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The documentation a user copies commands from: README and docs/, the personas and templates Wave ships, the Action's manifest. */
function docs(): string[] {
  const under = (folder: string) =>
    readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(md|ya?ml)$/.test(e.name))
      .map((e) => join(e.parentPath, e.name));
  return [...docPages(), join(ROOT, 'action.yml'), ...under('personas'), ...under('templates')];
}

describe('commands in the docs', () => {
  it('never spell wave as `npx wave`, which outside a project listing wave-pipelines runs the registry’s unrelated `wave`', () => {
    const found = docs().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bnpx wave\b(?!-)/.test(line) ? [`${file.slice(ROOT.length + 1)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
    expect(docs().length).toBeGreaterThan(3);
    expect(docs()).toEqual(expect.arrayContaining([join(ROOT, 'README.md'), join(ROOT, 'docs', 'pipelines.md')]));
  });
});
