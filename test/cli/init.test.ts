import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runWave } from '../support/cli.js';

const SCAFFOLD = ['wave.yaml', 'personas/base-protocol.md', 'personas/navigator.md', 'personas/craftsman.md', 'personas/reviewer.md', 'pipelines/review.yaml'];
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'wave-init-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The schema path named by a YAML file's first line, resolved from the file's folder. */
function schemaOf(file: string): { line: string; target: string } {
  const line = readFileSync(file, 'utf8').split('\n', 1)[0]!;
  const match = /^# yaml-language-server: \$schema=(.+)$/.exec(line);
  expect(match, line).not.toBeNull();
  return { line, target: resolve(dirname(file), match![1]!) };
}

describe('wave init', () => {
  it('scaffolds a project that validates as written', async () => {
    const dir = join(scratch, 'fresh');
    const result = await runWave(['init', dir]);
    expect(result.code, result.stderr).toBe(0);
    for (const file of SCAFFOLD) {
      expect(existsSync(join(dir, file)), file).toBe(true);
      expect(result.stdout).toContain(file);
    }
    const check = await runWave(['validate'], { cwd: dir });
    expect(check.code, check.stdout).toBe(0);
    expect(check.stdout).toBe('✓ wave.yaml\n✓ pipelines/review.yaml\n2 files valid');
  });

  it("points editors at this package's schemas by absolute path when Wave is not installed in the project", async () => {
    const dir = join(scratch, 'global');
    await runWave(['init', dir]);
    expect(schemaOf(join(dir, 'wave.yaml')).target).toBe(join(ROOT, 'schemas', 'manifest.schema.json'));
    expect(schemaOf(join(dir, 'pipelines', 'review.yaml')).target).toBe(join(ROOT, 'schemas', 'pipeline.schema.json'));
  });

  it('uses a relative path into node_modules/wave-pipelines when Wave is installed there', async () => {
    const dir = join(scratch, 'installed');
    const installed = join(dir, 'node_modules', 'wave-pipelines', 'schemas');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'manifest.schema.json'), '{}');
    writeFileSync(join(installed, 'pipeline.schema.json'), '{}');
    await runWave(['init'], { cwd: dir });
    expect(schemaOf(join(dir, 'wave.yaml')).line).toBe('# yaml-language-server: $schema=./node_modules/wave-pipelines/schemas/manifest.schema.json');
    expect(schemaOf(join(dir, 'pipelines', 'review.yaml')).line).toBe('# yaml-language-server: $schema=../node_modules/wave-pipelines/schemas/pipeline.schema.json');
  });

  it('refuses to overwrite, names the files, and writes nothing; --force overwrites', async () => {
    const dir = join(scratch, 'existing');
    mkdirSync(join(dir, 'personas'), { recursive: true });
    writeFileSync(join(dir, 'wave.yaml'), 'mine\n');
    writeFileSync(join(dir, 'personas', 'reviewer.md'), 'my reviewer\n');
    const refused = await runWave(['init', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('file_exists');
    expect(refused.stderr).toContain('`wave.yaml`, `personas/reviewer.md`');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(join(dir, 'wave.yaml'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(dir, 'personas', 'navigator.md'))).toBe(false);
    expect(existsSync(join(dir, 'pipelines'))).toBe(false);

    const forced = await runWave(['init', dir, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'wave.yaml'), 'utf8')).toContain('kind: WaveManifest');
    expect(readFileSync(join(dir, 'personas', 'reviewer.md'), 'utf8')).toBe(readFileSync(join(ROOT, 'personas', 'reviewer.md'), 'utf8'));
  });
});
