import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runWave } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';

const scratch = scratchFolder('wave-init-schema-');

/** The schema file a YAML file's first line names, resolved from the file's folder as an editor does. */
function schemaOf(file: string): { line: string; target: string } {
  const line = readFileSync(file, 'utf8').split('\n', 1)[0]!;
  const match = /^# yaml-language-server: \$schema=(.+)$/.exec(line);
  expect(match, line).not.toBeNull();
  return { line, target: resolve(dirname(file), match![1]!) };
}

/** Checks that the schema a scaffolded file names exists and accepts the file. */
function expectResolvesAndValidates(file: string): void {
  const { target } = schemaOf(file);
  // Editors check `format: uri` themselves; Ajv without its formats package takes it as given.
  const validate = new Ajv({ allErrors: true, strict: false, formats: { uri: true } }).compile(JSON.parse(readFileSync(target, 'utf8')) as object);
  expect(validate(parse(readFileSync(file, 'utf8'))), `${file} against ${target}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

const YAML_FILES = ['wave.yaml', 'pipelines/hello.yaml', 'pipelines/review.yaml', 'pipelines/review-llm.yaml'];

describe('the $schema line of what wave init writes', () => {
  it('names committed copies in .wave-schemas/ by relative path when Wave is not installed in the project (global install, npx)', async () => {
    const dir = join(scratch, 'global');
    const result = await runWave(['init', dir]);
    expect(result.stdout).toContain('.wave-schemas/pipeline.schema.json');
    expect(result.stdout).toMatch(/^commit .*\.wave-schemas\/ with the rest/m);
    expect(schemaOf(join(dir, 'wave.yaml')).line).toBe('# yaml-language-server: $schema=./.wave-schemas/manifest.schema.json');
    expect(schemaOf(join(dir, 'pipelines', 'hello.yaml')).line).toBe('# yaml-language-server: $schema=../.wave-schemas/pipeline.schema.json');
    for (const file of YAML_FILES) expectResolvesAndValidates(join(dir, file));
    expect(readFileSync(join(dir, '.wave-schemas', 'pipeline.schema.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'schemas', 'pipeline.schema.json'), 'utf8'));
    // What .gitignore ignores is .wave/ alone: the copies go into git with the files that name them.
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('.wave/\n');
  });

  it('gets the committed copies brought up to this Wave by wave validate after an upgrade', async () => {
    const dir = join(scratch, 'upgraded');
    await runWave(['init', dir]);
    // A copy from another Wave version is replaced by this one's.
    const copy = join(dir, '.wave-schemas', 'manifest.schema.json');
    cpSync(join(ROOT, 'schemas', 'event.schema.json'), copy);
    const check = await runWave(['validate'], { cwd: dir });
    expect(check.code, check.stdout).toBe(0);
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(join(ROOT, 'schemas', 'manifest.schema.json'), 'utf8'));
  });

  it('keeps a project of an earlier Wave working: its lines name .wave/schemas/, which wave validate writes in a clone', async () => {
    const dir = join(scratch, 'earlier');
    await runWave(['init', dir]);
    rmSync(join(dir, '.wave-schemas'), { recursive: true });
    for (const file of YAML_FILES) {
      const path = join(dir, file);
      writeFileSync(path, readFileSync(path, 'utf8').replace('.wave-schemas/', '.wave/schemas/'));
    }
    rmSync(join(dir, '.wave'), { recursive: true, force: true });
    const check = await runWave(['validate'], { cwd: dir });
    expect(check.code, check.stdout).toBe(0);
    expect(schemaOf(join(dir, 'wave.yaml')).line).toBe('# yaml-language-server: $schema=./.wave/schemas/manifest.schema.json');
    for (const file of YAML_FILES) expectResolvesAndValidates(join(dir, file));
    // A copy from another Wave version is replaced by this one's.
    const copy = join(dir, '.wave', 'schemas', 'manifest.schema.json');
    cpSync(join(ROOT, 'schemas', 'event.schema.json'), copy);
    await runWave(['validate'], { cwd: dir });
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(join(ROOT, 'schemas', 'manifest.schema.json'), 'utf8'));
  });

  it('writes no copy outside the project a file is in, whatever its line names', async () => {
    const dir = join(scratch, 'contained', 'project');
    await runWave(['init', dir]);
    const hello = join(dir, 'pipelines', 'hello.yaml');
    writeFileSync(hello, readFileSync(hello, 'utf8').replace('../.wave-schemas/', '../../.wave-schemas/'));
    expect((await runWave(['validate'], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(scratch, 'contained', '.wave-schemas'))).toBe(false);
  });

  it("names the project's own install, node_modules/wave-pipelines, by relative path when there is one", async () => {
    const dir = join(scratch, 'installed');
    const installed = join(dir, 'node_modules', 'wave-pipelines');
    mkdirSync(installed, { recursive: true });
    cpSync(join(ROOT, 'schemas'), join(installed, 'schemas'), { recursive: true });
    const result = await runWave(['init'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('schemas/');
    expect(schemaOf(join(dir, 'wave.yaml')).line).toBe('# yaml-language-server: $schema=./node_modules/wave-pipelines/schemas/manifest.schema.json');
    expect(schemaOf(join(dir, 'pipelines', 'review.yaml')).line).toBe('# yaml-language-server: $schema=../node_modules/wave-pipelines/schemas/pipeline.schema.json');
    for (const file of YAML_FILES) expectResolvesAndValidates(join(dir, file));
  });
});
