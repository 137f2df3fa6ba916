import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { adapterTypeOf, findManifest, loadManifest, loadPipeline, readManifest, resolvePipelinePath } from '../../src/config/load/load.js';
import { WaveError, WaveErrors } from '../../src/core/errors/errors.js';

const BASE = fileURLToPath(new URL('../fixtures/config/base/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'wave-load-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes a file under the scratch folder and returns its path. */
function write(path: string, text: string): string {
  const file = join(scratch, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function problems(load: Promise<unknown>): Promise<WaveError[]> {
  const error = await load.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof WaveErrors)) throw new Error(`expected WaveErrors, got ${String(error)}`);
  return error.errors;
}

describe('Located.locate', () => {
  it('gives the 1-based line:col of values, and falls back to the nearest parent', async () => {
    const manifest = await loadManifest(join(BASE, 'wave.yaml'), {});
    const pipeline = await loadPipeline(join(BASE, 'valid-pipeline.yaml'), manifest, {});
    const file = join(BASE, 'valid-pipeline.yaml');
    expect(pipeline.locate(['steps', 1, 'persona'])).toEqual({ file, line: 12, column: 14 });
    expect(pipeline.locate(['steps', 1, 'dependencies', 0])).toEqual({ file, line: 13, column: 20 });
    expect(pipeline.locate(['steps', 1, 'memory', 'inject_artifacts', 0, 'artifact'])).toEqual({ file, line: 16, column: 34 });
    // No such key: the step itself, whose mapping starts at `id`.
    expect(pipeline.locate(['steps', 1, 'no_such_key'])).toEqual({ file, line: 11, column: 5 });
    expect(pipeline.locate(['steps', 99])).toEqual(pipeline.locate(['steps']));
    expect(manifest.locate(['personas', 'reviewer', 'adapter'])).toEqual({ file: join(BASE, 'wave.yaml'), line: 17, column: 14 });
  });

  it('knows the manifest folder, from which relative paths resolve', async () => {
    const manifest = await loadManifest(join(BASE, 'wave.yaml'), {});
    expect(manifest.dir).toBe(BASE.replace(/\/$/, ''));
    expect(manifest.file).toBe(join(BASE, 'wave.yaml'));
  });
});

describe('environment references', () => {
  const manifest = (runtime: string) => write('env/wave.yaml', `kind: WaveManifest\nproject:\n  \${KEY}: literal key\n  home: "\${HOME_DIR}/x"\nruntime:\n${runtime}`);

  it('expand in values, never in keys, with defaults and $${} escapes', async () => {
    const file = manifest('  max_concurrency: ${WAVE_N:-4}\n  workspace_root: $${NOT_EXPANDED}\n');
    const loaded = await loadManifest(file, { HOME_DIR: '/home/me', KEY: 'nope' });
    expect(loaded.value.project).toEqual({ '${KEY}': 'literal key', home: '/home/me/x' });
    // A plain scalar that was only a reference takes the type YAML would give the expansion.
    expect(loaded.value.runtime?.max_concurrency).toBe(4);
    expect(loaded.value.runtime?.workspace_root).toBe('${NOT_EXPANDED}');
  });

  it('use the variable when set, and the default when it is set but empty', async () => {
    const file = manifest('  max_concurrency: ${WAVE_N:-4}\n  workspace_root: ${ROOT_DIR:-.wave/ws}\n');
    const loaded = await loadManifest(file, { HOME_DIR: '/h', WAVE_N: '7', ROOT_DIR: '' });
    expect(loaded.value.runtime?.max_concurrency).toBe(7);
    expect(loaded.value.runtime?.workspace_root).toBe('.wave/ws');
  });

  it('keep a quoted reference a string, so the schema can say so', async () => {
    const file = manifest('  max_concurrency: "${WAVE_N:-4}"\n');
    const [error] = await problems(loadManifest(file, { HOME_DIR: '/h' }));
    expect(error).toMatchObject({ code: 'wrong_type', location: { line: 6, column: 20 } });
  });

  it('report every unset variable at its scalar', async () => {
    const file = manifest('  workspace_root: ${UNSET_A}/${UNSET_B}\n');
    const errors = await problems(loadManifest(file, {}));
    expect(errors.map((e) => [e.code, e.message, e.location?.line])).toEqual([
      ['env_unset', '${HOME_DIR} is not set and has no default', 4],
      ['env_unset', '${UNSET_A} is not set and has no default', 6],
      ['env_unset', '${UNSET_B} is not set and has no default', 6],
    ]);
  });
});

describe('guards against pathological input', () => {
  it('refuses a file over 5 MiB without parsing it', async () => {
    const file = write('huge.yaml', `kind: WaveManifest\nproject:\n  blob: "${'x'.repeat(5 * 1024 * 1024)}"\n`);
    const [error] = await problems(loadManifest(file, {}));
    expect(error).toMatchObject({ code: 'input_too_large' });
    expect(error!.message).toContain('5 MiB');
  });

  it('refuses block nesting that would exhaust the YAML composer', async () => {
    const file = write('deep-block.yaml', `kind: WaveManifest\nproject:\n  x:\n    ${'- '.repeat(50_000)}end\n`);
    const [error] = await problems(loadManifest(file, {}));
    expect(error).toMatchObject({ code: 'input_too_large', location: { line: 4 } });
  });

  it('refuses deeply nested explicit keys, which crash the YAML parser when composed', async () => {
    const file = write('deep-keys.yaml', `${'? '.repeat(20_000)}x\n`);
    const [error] = await problems(loadManifest(file, {}));
    expect(error).toMatchObject({ code: 'input_too_large', location: { line: 1 } });
  });

  it('reports a missing file, and a folder given as a file', async () => {
    expect(await problems(loadManifest(join(scratch, 'nope.yaml'), {}))).toMatchObject([{ code: 'file_not_found' }]);
    expect(await problems(loadManifest(scratch, {}))).toMatchObject([{ code: 'io_error' }]);
  });

  it('summarises a flood of problems instead of printing thousands', async () => {
    const keys = Array.from({ length: 500 }, (_, i) => `unknown_${i}: 1`).join('\n');
    const read = await readManifest(write('flood.yaml', `kind: WaveManifest\n${keys}\n`), {});
    expect(read.errors).toHaveLength(101);
    expect(read.errors[100]!.message).toContain('400 more problems');
  });
});

describe('findManifest', () => {
  const project = join(scratch, 'project');
  const manifestFile = write('project/wave.yaml', 'kind: WaveManifest\n');
  mkdirSync(join(project, 'deep', 'er'), { recursive: true });

  it('finds wave.yaml in the folder or the nearest parent', () => {
    expect(findManifest(project)).toBe(manifestFile);
    expect(findManifest(join(project, 'deep', 'er'))).toBe(manifestFile);
  });

  it('takes -m as a file or a folder, resolved from the working directory', () => {
    expect(findManifest(scratch, 'project/wave.yaml')).toBe(manifestFile);
    expect(findManifest(scratch, 'project')).toBe(manifestFile);
  });

  it('says to run wave init when there is none', () => {
    const empty = mkdtempSync(join(tmpdir(), 'wave-none-'));
    try {
      expect(() => findManifest(empty)).toThrow(expect.objectContaining({ code: 'file_not_found', hint: expect.stringContaining('wave init') }));
      expect(() => findManifest(empty, 'missing.yaml')).toThrow(expect.objectContaining({ code: 'file_not_found' }));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('resolvePipelinePath', () => {
  const project = join(scratch, 'named');
  const review = write('named/pipelines/review.yaml', 'kind: WavePipeline\n');
  const legacy = write('named/pipelines/legacy.yml', 'kind: WavePipeline\n');
  const elsewhere = write('elsewhere/custom.yaml', 'kind: WavePipeline\n');

  it('takes an existing path relative to the working directory', () => {
    expect(resolvePipelinePath('elsewhere/custom.yaml', project, scratch)).toBe(elsewhere);
  });

  it('looks a name up under <manifest folder>/pipelines as .yaml or .yml', () => {
    expect(resolvePipelinePath('review', project, scratch)).toBe(review);
    expect(resolvePipelinePath('review.yaml', project, scratch)).toBe(review);
    expect(resolvePipelinePath('legacy', project, scratch)).toBe(legacy);
  });

  it('lists the known pipelines when nothing matches', () => {
    expect(() => resolvePipelinePath('reveiw', project, scratch)).toThrow(
      expect.objectContaining({ code: 'file_not_found', hint: 'Name one of the pipelines of this project: legacy, review.' }),
    );
  });
});

describe('adapterTypeOf', () => {
  it('uses the explicit type, else the name when it is a known CLI, else process', () => {
    expect(adapterTypeOf('claude', {})).toBe('claude');
    expect(adapterTypeOf('llm', {})).toBe('llm');
    expect(adapterTypeOf('claude', { type: 'process' })).toBe('process');
    expect(adapterTypeOf('fast-model', { type: 'opencode' })).toBe('opencode');
    expect(adapterTypeOf('shell', { binary: 'sh' })).toBe('process');
  });
});

describe('pipeline size', () => {
  it('refuses more steps than any hand-written pipeline has, instead of checking them for minutes', async () => {
    const steps = Array.from({ length: 5001 }, (_, i) => `  - { id: s${i}, dependencies: [${i ? `s${i - 1}` : ''}], exec: { type: command, source: x } }`);
    const file = write('many-steps.yaml', `kind: WavePipeline\nmetadata: { name: many }\nsteps:\n${steps.join('\n')}\n`);
    const manifest = await loadManifest(join(BASE, 'wave.yaml'), {});
    const errors = await problems(loadPipeline(file, manifest, {}));
    expect(errors.map((e) => [e.code, e.location?.line])).toEqual([['input_too_large', 4]]);
  });
});
