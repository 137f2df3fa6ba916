import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadManifest, loadPipeline, manifestView, readManifest, readPipeline, type Located, type ManifestView } from '../../src/config/load/load.js';
import type { Manifest } from '../../src/config/schema/manifest-schema.js';
import { WaveErrors, formatError } from '../../src/core/errors/errors.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/config/', import.meta.url));
const THREAD = join(FIXTURES, 'thread');

let base: ManifestView;
let baseManifest: Located<Manifest>;
beforeAll(async () => {
  base = manifestView(await readManifest(join(FIXTURES, 'base', 'wave.yaml'), {}));
  baseManifest = await loadManifest(join(FIXTURES, 'base', 'wave.yaml'), {});
});

/** The problems of a thread fixture as [code, line, column], their formatted report, and the errors themselves. */
async function problemsOf(name: string) {
  const file = join(THREAD, name);
  const read = await readPipeline(file, base, {});
  for (const error of read.errors) expect(error.location?.file).toBe(file);
  return { file, errors: read.errors, where: read.errors.map((e) => [e.code, e.location?.line, e.location?.column]), report: read.errors.map(formatError).join('\n') };
}

describe('pipeline checks of thread and fidelity', () => {
  it('thread_unordered: a later thread step that depends on no earlier one, at its `thread:` value, with the dependency to add', async () => {
    const { file, errors, where, report } = await problemsOf('unordered.yaml');
    // `build` runs beside `plan`; `check` depends on `build`, so it is ordered; `fix` runs beside `lint` in thread `other`.
    expect(where).toEqual([
      ['thread_unordered', 11, 13],
      ['thread_unordered', 26, 13],
    ]);
    expect(errors[0]!.message).toBe('step `build` of thread `impl` depends on no earlier step of the thread, so it could run at the same time as `plan`');
    expect(errors[0]!.hint).toBe('Add `plan` to the dependencies of `build`: the steps of a thread run one after another.');
    expect(errors[1]!.hint).toBe('Add `lint` to the dependencies of `fix`: the steps of a thread run one after another.');
    expect(report).toContain(`${file}:11:13: thread_unordered:`);
    // The strict loader throws all of them at once.
    const thrown = await loadPipeline(file, baseManifest, {}).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(WaveErrors);
    expect((thrown as WaveErrors).errors.map((e) => e.code)).toEqual(['thread_unordered', 'thread_unordered']);
  });

  it("a rework_only step stays out of its thread's order, as in Wave: it runs when the step it fixes failed, never beside it", async () => {
    const { where } = await problemsOf('rework-only.yaml');
    expect(where).toEqual([]);
  });

  it('missing_field: fidelity on a step in no thread', async () => {
    const { errors, where } = await problemsOf('fidelity-without-thread.yaml');
    expect(where).toEqual([['missing_field', 11, 15]]);
    expect(errors[0]!.message).toContain('step `build` sets fidelity but is in no thread');
    expect(errors[0]!.hint).toContain('Add `thread: <name>`');
  });

  it('wrong_type: a fidelity that is not one of full, compact, summary, fresh, with the likely one suggested', async () => {
    const { errors, where } = await problemsOf('fidelity-unknown.yaml');
    expect(where).toEqual([['wrong_type', 13, 15]]);
    expect(errors[0]!.message).toContain('"compacted"');
    expect(errors[0]!.hint).toContain('Did you mean `compact`?');
    expect(errors[0]!.hint).toContain('`full`, `compact`, `summary`, `fresh`');
  });

  it('a valid chain passes: transitive dependencies through a step outside the thread order it, and one-step threads need nothing', async () => {
    const { errors } = await problemsOf('valid-chain.yaml');
    expect(errors.map(formatError)).toEqual([]);
    const pipeline = await loadPipeline(join(THREAD, 'valid-chain.yaml'), baseManifest, {});
    expect(pipeline.value.steps.map((s) => [s.id, s.thread, s.fidelity])).toEqual([
      ['plan', 'impl', undefined],
      ['prepare', undefined, undefined],
      ['build', 'impl', 'compact'],
      ['review', 'impl', 'summary'],
      ['audit', 'audit', 'fresh'],
    ]);
  });
});
