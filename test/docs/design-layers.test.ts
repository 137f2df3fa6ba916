import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

interface PathMatch {
  path?: string;
  pathNot?: string[];
  circular?: boolean;
  reachable?: boolean;
}

interface ForbiddenRule {
  name: string;
  from: PathMatch;
  to: PathMatch;
}

const rules = (createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: ForbiddenRule[] }).forbidden;
const design = readFileSync(join(ROOT, 'docs', 'design.md'), 'utf8');

/** The folders a `^src/(a|b)/` pattern names. */
function folders(pattern: string | undefined): string[] {
  const alternatives = /^\^src\/\(([\w|-]+)\)\/$/.exec(pattern ?? '')?.[1];
  return alternatives ? alternatives.split('|').sort() : [];
}

/** The rows of the design page's table of import rules: rule name, layer folder, and the folders it must not import. */
function documentedRows(): Map<string, { layer: string; mustNot: string }> {
  const section = design.slice(design.indexOf('## Layers and import rules'));
  const rows = [...section.matchAll(/^\| `([a-z-]+)` \| `([a-z-]+)\/`[^|]* \| ([^|]+) \|/gm)];
  return new Map(rows.map((row) => [row[1]!, { layer: row[2]!, mustNot: row[3]!.trim() }]));
}

describe('docs/design.md', () => {
  it('lists every import rule of .dependency-cruiser.cjs, each layer with the folders it must not import', () => {
    const rows = documentedRows();
    const layerRules = rules.filter((rule) => folders(rule.from.path).length === 1 && folders(rule.to.path).length > 0);
    expect(layerRules.length).toBeGreaterThan(5);
    for (const rule of layerRules) {
      expect(rows.get(rule.name), rule.name).toEqual({ layer: folders(rule.from.path)[0], mustNot: expect.any(String) });
      expect(rows.get(rule.name)!.mustNot.split(', ').sort(), rule.name).toEqual(folders(rule.to.path));
    }
    const core = rules.find((rule) => rule.name === 'core-imports-only-core')!;
    expect([core.from.path, core.to.path, core.to.pathNot]).toEqual(['^src/core/', '^src/', ['^src/core/']]);
    expect(rows.get('core-imports-only-core')).toEqual({ layer: 'core', mustNot: 'anything outside `core/`' });
    // The rules that are no layer's are named in the text, and the table has no rule the config lacks.
    const others = rules.filter((rule) => !rows.has(rule.name)).map((rule) => rule.name);
    expect(others.sort()).toEqual(['no-circular', 'no-unreachable-source']);
    for (const name of others) expect(design).toContain(`\`${name}\``);
    expect([...rows.keys()].filter((name) => !rules.some((rule) => rule.name === name))).toEqual([]);
  });

  it('never lists an import today that a rule forbids', () => {
    const section = design.slice(design.indexOf('## Layers and import rules'));
    const rows = [...section.matchAll(/^\| `[a-z-]+` \| `[a-z-]+\/`[^|]* \| ([^|]+) \| ([^|]+) \|$/gm)];
    expect(rows.length).toBe(documentedRows().size);
    for (const [, mustNot, today] of rows) {
      const forbidden = mustNot!.trim().split(', ');
      expect(
        today!
          .trim()
          .split(', ')
          .filter((folder) => forbidden.includes(folder)),
      ).toEqual([]);
    }
  });
});
