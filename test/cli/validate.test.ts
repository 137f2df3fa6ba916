import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, runWave } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';

const BASE = fileURLToPath(new URL('../fixtures/config/base/', import.meta.url));
const BROKEN = fileURLToPath(new URL('../fixtures/config/broken/pipeline/', import.meta.url));
const scratch = scratchFolder('wave-validate-');

/** A fresh copy of the base fixture project: wave.yaml, personas, prompts, schemas and one valid pipeline. */
function project(name: string): string {
  const dir = join(scratch, name);
  cpSync(BASE, dir, { recursive: true });
  mkdirSync(join(dir, 'pipelines'));
  cpSync(join(BASE, 'valid-pipeline.yaml'), join(dir, 'pipelines', 'valid.yaml'));
  rmSync(join(dir, 'valid-pipeline.yaml'));
  return dir;
}

describe('wave validate', () => {
  it('passes a valid project: ✓ per file, a count, exit 0, and [] with --json', async () => {
    const dir = project('valid');
    const text = await runWave(['validate'], { cwd: dir });
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toBe('✓ wave.yaml\n✓ pipelines/valid.yaml\n2 files valid');
    const json = await runWave(['validate', '--json'], { cwd: dir });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it('reports every problem of every file as file:line:col: code: message with a hint, and exits 2', async () => {
    const dir = project('broken');
    cpSync(join(BROKEN, 'many-problems.yaml'), join(dir, 'pipelines', 'many.yaml'));
    cpSync(join(BROKEN, 'cycle.yaml'), join(dir, 'pipelines', 'cycle.yaml'));
    const result = await runWave(['validate'], { cwd: dir });
    expect(result.code).toBe(2);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('✓ wave.yaml');
    expect(lines).toContain('✗ pipelines/cycle.yaml');
    expect(lines).toContain('pipelines/cycle.yaml:6:20: dag_cycle: the steps depend on each other in a cycle: a → c → b → a');
    expect(lines).toContain('pipelines/many.yaml:7:14: unknown_persona: step `map` names persona `navigatr`, which the manifest does not declare');
    expect(lines).toContain('  hint: Did you mean `navigator`?');
    expect(lines).toContain('✓ pipelines/valid.yaml');
    expect(lines.at(-1)).toBe('6 problems in 2 of 4 files');
    expect(result.stderr).toBe('');
  });

  it('prints the problems as a JSON array with --json, each with its severity', async () => {
    const dir = project('json');
    cpSync(join(BROKEN, 'unknown-dependency.yaml'), join(dir, 'pipelines', 'deps.yaml'));
    const result = await runWave(['validate', '--json'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        code: 'unknown_dependency',
        severity: 'error',
        file: 'pipelines/deps.yaml',
        line: 8,
        column: 20,
        message: 'step `test` depends on `biuld`, which is not a step of this pipeline',
        hint: 'Did you mean `build`?',
      },
      {
        code: 'unknown_dependency',
        severity: 'error',
        file: 'pipelines/deps.yaml',
        line: 8,
        column: 27,
        message: 'step `test` depends on `lint`, which is not a step of this pipeline',
        hint: 'Steps of this pipeline: `build`, `test`.',
      },
    ]);
  });

  it('prints a YAML syntax error once, with its file:line:col, in validate and in run', async () => {
    const dir = project('wrapped');
    cpSync(join(BROKEN, 'yaml-wrapped-colon.yaml'), join(dir, 'pipelines', 'wrapped.yaml'));
    const said = 'yaml_syntax: Nested mappings are not allowed in compact mappings';
    const validate = await runWave(['validate', 'wrapped'], { cwd: dir });
    expect(validate.code).toBe(2);
    expect(validate.stdout.split(said)).toHaveLength(2);
    expect(validate.stdout).toContain(`pipelines/wrapped.yaml:7:18: ${said}`);
    const run = await runWave(['run', 'wrapped'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(`${run.stdout}${run.stderr}`.split(said)).toHaveLength(2);
    expect(run.stderr).toContain(`${join(dir, 'pipelines', 'wrapped.yaml')}:7:18: ${said}`);
  });

  it('checks only the pipelines named, by name or by path', async () => {
    const dir = project('named');
    cpSync(join(BROKEN, 'cycle.yaml'), join(dir, 'pipelines', 'cycle.yaml'));
    expect((await runWave(['validate', 'valid'], { cwd: dir })).stdout).toBe('✓ wave.yaml\n✓ pipelines/valid.yaml\n2 files valid');
    expect((await runWave(['validate', 'pipelines/valid.yaml'], { cwd: dir })).code).toBe(0);
    const unknown = await runWave(['validate', 'vaild'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toContain('file_not_found: no pipeline `vaild`');
    expect(unknown.stdout).toContain('pipelines of this project: cycle, valid');
  });

  it("resolves paths from the manifest's folder, never from the working directory", async () => {
    const dir = project('rooted');
    const elsewhere = join(scratch, 'elsewhere');
    mkdirSync(join(elsewhere, 'prompts'), { recursive: true });
    const manifest = join(dir, 'wave.yaml');
    // From another folder, with -m: the prompt files, schemas and personas are still found.
    const ok = await runWave(['validate', '-m', manifest], { cwd: elsewhere });
    expect(ok.code, ok.stdout).toBe(0);
    // A file that exists only relative to the working directory does not count.
    writeFileSync(join(elsewhere, 'prompts', 'only-here.md'), 'x');
    writeFileSync(
      join(dir, 'pipelines', 'cwd.yaml'),
      'kind: WavePipeline\nmetadata: { name: cwd }\nsteps:\n  - id: a\n    persona: navigator\n    exec: { source_path: prompts/only-here.md }\n',
    );
    const bad = await runWave(['validate', '-m', manifest, join(dir, 'pipelines', 'cwd.yaml')], { cwd: elsewhere });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain(
      `6:26: file_not_found: step \`a\` names source_path \`prompts/only-here.md\`, which does not exist (looked for ${join(dir, 'prompts', 'only-here.md')})`,
    );
  });

  it('says how to start when there is no wave.yaml, in text and in JSON', async () => {
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    const text = await runWave(['validate'], { cwd: empty });
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('file_not_found: no wave.yaml in');
    expect(text.stdout).toContain('hint: Run `wave init` to create one');
    const json = await runWave(['validate', '--json'], { cwd: empty });
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ code: 'file_not_found', file: 'wave.yaml' })]);
  });

  it('warns, and still passes, when the configured sandbox backend cannot run on this machine', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wave-validate-'));
    writeFileSync(join(dir, 'wave.yaml'), 'kind: WaveManifest\nmetadata: { name: t }\nruntime: { sandbox: { backend: docker } }\n');
    const result = await runWave(['validate'], { cwd: dir, env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: runtime.sandbox.backend docker cannot run on this machine: the Docker daemon is not answering');
    expect(result.stderr).toContain('hint: Start the Docker daemon');
    rmSync(dir, { recursive: true, force: true });
  });

  it("validates the repository's own shipped files", async () => {
    const result = await runWave(['validate'], { cwd: ROOT });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('✓ pipelines/review.yaml');
  });
});
