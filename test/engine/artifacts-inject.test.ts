import { existsSync } from 'node:fs';
import { readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { collectArtifacts, injectArtifacts, type InjectRef } from '../../src/engine/artifacts/artifacts.js';
import { INJECTED_ARTIFACTS_DIR, WAVE_INJECTED_ARTIFACTS_DIR } from '../../src/core/run-paths.js';
import { tempDir, writeTree } from '../fixtures/workspace/helpers.js';

const DIR = INJECTED_ARTIFACTS_DIR;

let dir: string;
let cleanup: () => Promise<void>;
let consumer: string;
/** step -> artifact -> saved path, as the run store would answer. */
let saved: Record<string, Record<string, string>>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  consumer = join(dir, 'consumer');
  const producer = join(dir, 'producer');
  await writeTree(producer, { 'out/report.md': '# Report\n', 'chunks/a.txt': 'a\n', 'chunks/b/c.txt': 'c\n' });
  await writeTree(consumer, {});
  const collected = await collectArtifacts({
    workspace: producer,
    defs: [
      { name: 'report', path: 'out/report.md' },
      { name: 'chunks', path: 'chunks' },
    ],
    destDir: join(dir, 'run', 'artifacts', 'split'),
  });
  saved = { split: Object.fromEntries(collected.saved.map((a) => [a.name, a.path])) };
});
afterEach(() => cleanup());

const locate = (ref: InjectRef) => {
  const path = saved[ref.step!]?.[ref.artifact];
  return path !== undefined ? { path } : undefined;
};

async function failure(refs: Parameters<typeof injectArtifacts>[0]['refs']): Promise<WaveError> {
  const error = await injectArtifacts({ workspace: consumer, dir: DIR, refs, locate }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WaveError);
  return error as WaveError;
}

describe('injecting artifacts', () => {
  it('places each artifact at .wave/artifacts/<as> and returns the template map', async () => {
    const map = await injectArtifacts({
      workspace: consumer,
      dir: DIR,
      refs: [
        { step: 'split', artifact: 'report', as: 'input.md' },
        { step: 'split', artifact: 'chunks' },
      ],
      locate,
    });
    const folder = join(consumer, '.wave', 'artifacts');
    expect(map).toEqual({ 'input.md': join(folder, 'input.md'), chunks: join(folder, 'chunks') });
    expect(await readFile(map['input.md']!, 'utf8')).toBe('# Report\n');
    expect(await readFile(join(map.chunks!, 'b', 'c.txt'), 'utf8')).toBe('c\n');
  });

  it('replaces an artifact injected by an earlier attempt', async () => {
    const refs = [{ step: 'split', artifact: 'report', as: 'input.md' }];
    await injectArtifacts({ workspace: consumer, dir: DIR, refs, locate });
    const map = await injectArtifacts({ workspace: consumer, dir: DIR, refs, locate });
    expect(await readFile(map['input.md']!, 'utf8')).toBe('# Report\n');
    expect(await readdir(join(consumer, '.wave', 'artifacts'))).toEqual(['input.md']);
  });

  it('fails on a missing artifact, naming the step and the artifact', async () => {
    const error = await failure([{ step: 'split', artifact: 'summary' }]);
    expect(error.code).toBe('artifact_missing');
    expect(error.message).toBe('artifact `summary` of step `split` is not available');
  });

  it('fails when the saved file is gone, naming where it looked', async () => {
    saved.split!.ghost = join(dir, 'run', 'artifacts', 'split', 'ghost.txt');
    const error = await failure([{ step: 'split', artifact: 'ghost' }]);
    expect(error.message).toContain(`looked at ${saved.split!.ghost}`);
  });

  it('skips a missing optional artifact', async () => {
    const map = await injectArtifacts({
      workspace: consumer,
      dir: DIR,
      refs: [
        { step: 'lint', artifact: 'warnings', optional: true },
        { step: 'split', artifact: 'report' },
      ],
      locate,
    });
    expect(Object.keys(map)).toEqual(['report']);
    expect(existsSync(join(consumer, '.wave', 'artifacts', 'warnings'))).toBe(false);
  });

  it('refuses an `as` that leaves the artifacts folder', async () => {
    for (const as of ['../escape.md', '../../escape.md', '/tmp/escape.md', '.', '']) {
      const error = await failure([{ step: 'split', artifact: 'report', as }]);
      expect(error.code).toBe('artifact_path_invalid');
    }
    expect(existsSync(join(consumer, '.wave', 'escape.md'))).toBe(false);
    expect(existsSync(join(consumer, 'escape.md'))).toBe(false);
  });

  it("places them in the folder the plan names: Wave's .agents/artifacts, or a default_artifact_dir", async () => {
    for (const dir of [WAVE_INJECTED_ARTIFACTS_DIR, join('out', 'in')]) {
      const map = await injectArtifacts({ workspace: consumer, dir, refs: [{ step: 'split', artifact: 'report', as: 'spec.md' }], locate });
      expect(map).toEqual({ 'spec.md': join(consumer, dir, 'spec.md') });
      expect(await readFile(join(consumer, dir, 'spec.md'), 'utf8')).toBe('# Report\n');
    }
    const escape = await injectArtifacts({ workspace: consumer, dir: WAVE_INJECTED_ARTIFACTS_DIR, refs: [{ step: 'split', artifact: 'report', as: '../x.md' }], locate }).then(
      () => undefined,
      (e: unknown) => e as WaveError,
    );
    expect(escape?.message).toBe(`inject_artifacts \`as: ../x.md\` leads outside ${WAVE_INJECTED_ARTIFACTS_DIR} of the step workspace`);
  });

  it('refuses to write through a .wave symlink leading out of the workspace', async () => {
    const outside = join(dir, 'outside');
    await writeTree(outside, {});
    await symlink(outside, join(consumer, '.wave'));
    const error = await failure([{ step: 'split', artifact: 'report' }]);
    expect(error.code).toBe('artifact_path_invalid');
    expect(await readdir(outside)).toEqual([]);
  });
});
