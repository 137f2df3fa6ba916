import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';

const scratch = scratchFolder('wave-init-links-');

/** Every file under `dir` with its text: what a write through a link would change. */
function contentsOf(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => [join(entry.parentPath, entry.name).slice(dir.length + 1), readFileSync(join(entry.parentPath, entry.name), 'utf8')]),
  );
}

/**
 * A project folder whose every place `wave init` writes is a symlink out of it (a folder, a file that exists out
 * there, a dangling one, .gitignore, .wave-schemas/), and the folder they point into, holding two files of its own.
 */
function linkedProject(name: string): { project: string; outside: string; links: string[] } {
  const project = join(scratch, name, 'project');
  const outside = join(scratch, name, 'outside');
  mkdirSync(join(outside, 'personas'), { recursive: true });
  mkdirSync(join(outside, 'pipelines'));
  mkdirSync(join(outside, 'schemas'));
  writeFileSync(join(outside, 'gitignore'), 'secrets.env\n');
  writeFileSync(join(outside, 'personas', 'navigator.md'), 'not a persona of this project\n');
  mkdirSync(project);
  const links: [string, string][] = [
    ['personas', join(outside, 'personas')],
    ['pipelines', join(outside, 'pipelines')],
    ['wave.yaml', join(outside, 'manifest.yaml')],
    ['.gitignore', join(outside, 'gitignore')],
    ['.wave-schemas', join(outside, 'schemas')],
  ];
  for (const [path, target] of links) symlinkSync(target, join(project, path));
  return { project, outside, links: links.map(([path]) => path) };
}

describe('wave init through symlinks', () => {
  it('refuses to write through a link in the folder, naming it and hinting --force, and writes nothing', async () => {
    const { project, outside, links } = linkedProject('refused');
    const before = contentsOf(outside);
    const result = await runWave(['init', project]);
    expect([result.code, result.stdout]).toEqual([2, '']);
    for (const link of links) expect(result.stderr).toContain(`\`${join(project, link)}\``);
    expect(result.stderr).toContain('are symbolic links');
    expect(result.stderr).toContain('hint: Remove the links, or pass --force');
    expect(contentsOf(outside)).toEqual(before);
    expect(readdirSync(project).sort()).toEqual([...links].sort());
  });

  it('--force replaces each link by a plain file or folder in the project, and leaves what they pointed to as it was', async () => {
    const { project, outside, links } = linkedProject('forced');
    const before = contentsOf(outside);
    const result = await runWave(['init', project, '--force']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(contentsOf(outside)).toEqual(before);
    for (const link of links) expect(lstatSync(join(project, link)).isSymbolicLink(), link).toBe(false);
    expect(readFileSync(join(project, '.gitignore'), 'utf8')).toBe('.wave/\n');
    expect(Object.keys(contentsOf(project))).toEqual(expect.arrayContaining(['wave.yaml', 'personas/navigator.md', 'pipelines/hello.yaml', '.wave-schemas/pipeline.schema.json']));
  });

  it('refuses a link deeper down (a file in a scaffold folder), and --force replaces only that link', async () => {
    const project = join(scratch, 'deep', 'project');
    const outside = join(scratch, 'deep', 'outside.yaml');
    mkdirSync(join(project, 'pipelines'), { recursive: true });
    writeFileSync(outside, 'kept\n');
    symlinkSync(outside, join(project, 'pipelines', 'hello.yaml'));
    const refused = await runWave(['init', project]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`\`${join(project, 'pipelines', 'hello.yaml')}\` is a symbolic link`);
    expect((await runWave(['init', project, '--force'])).code).toBe(0);
    expect(readFileSync(outside, 'utf8')).toBe('kept\n');
    expect(readFileSync(join(project, 'pipelines', 'hello.yaml'), 'utf8')).toContain('kind: WavePipeline');
  });
});
