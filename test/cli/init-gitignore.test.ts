import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ignoreFolder } from '../../src/cli/gitignore-entry.js';
import { FALLBACK_PROJECT_NAME, projectNameOf } from '../../src/cli/project-name.js';
import { runWave } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';

const scratch = scratchFolder('wave-init-ignore-');

/** A new folder under the scratch one, holding a .gitignore with `text` unless it is undefined. */
function folderWith(name: string, text?: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  if (text !== undefined) writeFileSync(join(dir, '.gitignore'), text);
  return dir;
}

const gitignoreOf = (dir: string) => readFileSync(join(dir, '.gitignore'), 'utf8');

describe('wave init and .gitignore', () => {
  it('creates .gitignore ignoring .wave/, and says so', async () => {
    const dir = join(scratch, 'none');
    const result = await runWave(['init', dir]);
    expect(gitignoreOf(dir)).toBe('.wave/\n');
    expect(result.stdout).toContain('created');
    expect(result.stdout).toMatch(/\.gitignore \(ignores \.wave\//);
  });

  it('appends to an existing one, on a line of its own when the last line has no newline', async () => {
    const dir = folderWith('no-newline', 'node_modules\ndist');
    const result = await runWave(['init', dir]);
    expect(gitignoreOf(dir)).toBe('node_modules\ndist\n.wave/\n');
    expect(result.stdout).toContain('updated');
  });

  it('never adds a second line, however the first one is written, and --force keeps it single', async () => {
    for (const [name, text] of [
      ['slash', 'x\n/.wave\n'],
      ['bare', '.wave\n'],
      ['spaced', '  .wave/  \r\n'],
    ] as const) {
      const dir = folderWith(name, text);
      await runWave(['init', dir]);
      expect(gitignoreOf(dir)).toBe(text);
    }
    const dir = join(scratch, 'twice');
    await runWave(['init', dir]);
    const again = await runWave(['init', dir, '--force']);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('.gitignore');
    expect(gitignoreOf(dir)).toBe('.wave/\n');
  });

  it('reports what it did to the file', () => {
    expect(ignoreFolder(folderWith('unit-new'), '.wave')).toBe('created');
    expect(ignoreFolder(folderWith('unit-empty', ''), '.wave')).toBe('appended');
    expect(ignoreFolder(folderWith('unit-has', '.wave/\n'), '.wave')).toBe('present');
  });
});

describe("the project's name, from its folder", () => {
  it.each([
    ['my-project', 'my-project'],
    ['My Project (v2)', 'my-project-v2'],
    ['Über_Café', 'uber-cafe'],
    ['  --spaces--  ', 'spaces'],
    ['a'.repeat(70), 'a'.repeat(63)],
    ['日本語', FALLBACK_PROJECT_NAME],
    ['', FALLBACK_PROJECT_NAME],
    ['/home/me/Projects/Site.com', 'site-com'],
  ])('%j is named %j', (folder, name) => {
    expect(projectNameOf(folder)).toBe(name);
  });

  it('is written into wave.yaml as a string the manifest accepts, even when it reads as a number', async () => {
    const dir = join(scratch, '2024');
    await runWave(['init', dir]);
    expect((parse(readFileSync(join(dir, 'wave.yaml'), 'utf8')) as { metadata: { name: unknown } }).metadata.name).toBe('2024');
    const check = await runWave(['validate'], { cwd: dir });
    expect(check.code, check.stdout).toBe(0);
  });
});
