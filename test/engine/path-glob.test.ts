import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globFiles } from '../../src/engine/workspace/path-glob.js';
import { segmentPattern } from '../../src/core/glob-segment.js';

/** A folder holding the given files (path → text). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'wave-glob-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("globFiles: Wave's commands_glob (Go filepath.Glob: *, ? and [...] within one folder)", () => {
  it('matches files segment by segment, sorted, folders and non-matches left out', async () => {
    const root = tree({
      '.claude/commands/speckit.plan.md': '',
      '.claude/commands/speckit.tasks.md': '',
      '.claude/commands/speckit.md': '',
      '.claude/commands/other.plan.md': '',
      '.claude/commands/speckit.dir.md/x': '',
      'a1/x.md': '',
      'b2/x.md': '',
    });
    expect(await globFiles(root, '.claude/commands/speckit.*.md')).toEqual([join(root, '.claude/commands/speckit.plan.md'), join(root, '.claude/commands/speckit.tasks.md')]);
    expect(await globFiles(root, '[a-z]?/x.md')).toEqual([join(root, 'a1/x.md'), join(root, 'b2/x.md')]);
    expect(await globFiles(root, '[!a]*/x.md')).toEqual([join(root, 'b2/x.md')]);
    expect(await globFiles(root, 'missing/*.md')).toEqual([]);
  });

  it('leaves out a match that is a symlink leading out of the folder', async () => {
    const outside = tree({ 'secret.md': 'secret' });
    const root = tree({ 'cmds/own.md': '' });
    symlinkSync(join(outside, 'secret.md'), join(root, 'cmds', 'leak.md'));
    symlinkSync('own.md', join(root, 'cmds', 'alias.md'));
    expect(await globFiles(root, 'cmds/*.md')).toEqual([join(root, 'cmds/alias.md'), join(root, 'cmds/own.md')]);
  });

  it('reads a segment as Go does: regular expression characters are literal', () => {
    expect(segmentPattern('a.b*').test('a.bc')).toBe(true);
    expect(segmentPattern('a.b*').test('axbc')).toBe(false);
    expect(segmentPattern('x\\*').test('x*')).toBe(true);
    expect(segmentPattern('(x)+').test('(x)+')).toBe(true);
  });
});
