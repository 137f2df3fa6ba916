import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestView, readManifest, readPipeline, loadManifest, loadPipeline, type ManifestView } from '../../src/config/load/load.js';
import { WaveError, WaveErrors } from '../../src/core/errors/errors.js';
import { ERROR_CODES } from '../../src/core/errors/error-codes.js';
import { runWave } from '../support/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WAVE_STYLE = fileURLToPath(new URL('../fixtures/config/wave-style/', import.meta.url));
// Fixed, so a run is reproducible; set WAVE_FUZZ_SEED to explore other inputs.
const SEED = Number(process.env.WAVE_FUZZ_SEED ?? 20_240_611);

const MANIFESTS = [join(ROOT, 'wave.yaml'), join(WAVE_STYLE, 'wave.yaml')];
const PIPELINES = [join(ROOT, 'pipelines', 'review.yaml'), join(ROOT, 'pipelines', 'hello.yaml'), join(WAVE_STYLE, '.agents', 'pipelines', 'impl-feature.yaml')];
const sources = (files: string[]) =>
  files.flatMap((file) => {
    try {
      return [readFileSync(file, 'utf8')];
    } catch {
      return [];
    }
  });

/** A project folder with the shipped personas, so mutated manifests can still resolve their prompt files. */
const project = mkdtempSync(join(tmpdir(), 'wave-fuzz-'));
cpSync(join(ROOT, 'personas'), join(project, 'personas'), { recursive: true });
afterAll(() => rmSync(project, { recursive: true, force: true }));

const SWAPPED_VALUES = [
  '[]',
  '{}',
  '42',
  '-1',
  '0.5',
  'true',
  'null',
  '~',
  '""',
  '"x"',
  '- a',
  '&a x',
  '*a',
  '!!binary aGk=',
  '${WAVE_FUZZ_UNSET}',
  '${X:-1}',
  '|',
  '>-',
  '{ a: [',
  "'",
  '"',
  '@',
  '`',
  '%',
  '? x',
  'a: b: c',
];

/** One edit of a YAML text: the kinds of damage a hand-edited file suffers, and hostile ones. */
const mutation: fc.Arbitrary<(text: string) => string> = fc.oneof(
  fc.nat().map((n) => (text: string) => edit(text, n, (lines, i) => lines.splice(i, 1))),
  fc.nat().map((n) => (text: string) => edit(text, n, (lines, i) => lines.splice(i, 0, lines[i]!))),
  fc.tuple(fc.nat(), fc.nat()).map(
    ([a, b]) =>
      (text: string) =>
        edit(text, a, (lines, i) => {
          const j = b % lines.length;
          [lines[i], lines[j]] = [lines[j]!, lines[i]!];
        }),
  ),
  fc.tuple(fc.nat(), fc.constantFrom(...SWAPPED_VALUES)).map(
    ([n, value]) =>
      (text: string) =>
        edit(text, n, (lines, i) => {
          lines[i] = lines[i]!.replace(/:( .*)?$/, `: ${value}`);
        }),
  ),
  fc.tuple(fc.nat(), fc.integer({ min: -4, max: 4 })).map(
    ([n, shift]) =>
      (text: string) =>
        edit(text, n, (lines, i) => {
          lines[i] = shift > 0 ? ' '.repeat(shift) + lines[i] : lines[i]!.slice(-shift);
        }),
  ),
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 64 })).map(
    ([n, bytes]) =>
      (text: string) =>
        insert(text, n, Buffer.from(bytes).toString('latin1')),
  ),
  fc.tuple(fc.nat(), fc.string({ unit: 'grapheme', maxLength: 40 })).map(
    ([n, s]) =>
      (text: string) =>
        insert(text, n, s),
  ),
  fc.tuple(fc.nat(), fc.constantFrom('[', '{', '- ', '? ', '  - ', 'a: '), fc.integer({ min: 50, max: 6000 })).map(
    ([n, opener, depth]) =>
      (text: string) =>
        insert(text, n, opener.repeat(depth)),
  ),
  fc.tuple(fc.nat(), fc.integer({ min: 1000, max: 300_000 })).map(
    ([n, size]) =>
      (text: string) =>
        insert(text, n, 'x'.repeat(size)),
  ),
  fc.constant((text: string) => `${text}\n---\n${text}`),
  fc.constant((text: string) => text.replace(/\n/g, '\r\n')),
);

function edit(text: string, n: number, change: (lines: string[], index: number) => void): string {
  const lines = text.split('\n');
  change(lines, n % lines.length);
  return lines.join('\n');
}

function insert(text: string, n: number, piece: string): string {
  const at = n % (text.length + 1);
  return text.slice(0, at) + piece + text.slice(at);
}

const mutated = (texts: string[]) =>
  fc.tuple(fc.constantFrom(...texts), fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([text, edits]) => edits.reduce((t, e) => e(t), text));

/** The loader may succeed or report problems; anything else (a TypeError, a RangeError…) is a bug. */
async function onlyWaveErrors(load: Promise<unknown>): Promise<void> {
  const outcome = await load.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (outcome === undefined) return;
  const errors = outcome instanceof WaveErrors ? outcome.errors : [outcome];
  for (const error of errors) {
    if (!(error instanceof WaveError)) throw new Error(`not a WaveError: ${error instanceof Error ? error.stack : inspect(error)}`);
    expect(Object.keys(ERROR_CODES)).toContain(error.code);
    expect(error.code).not.toBe('internal');
    const { line, column } = error.location ?? {};
    if (line !== undefined) expect(Number.isInteger(line) && line >= 1 && Number.isInteger(column) && column! >= 1).toBe(true);
  }
}

describe('mutated shipped files, loaded in-process', () => {
  let counter = 0;
  const file = () => join(project, `mutant-${counter++}.yaml`);

  it('manifests: every outcome is a value or WaveErrors', async () => {
    await fc.assert(
      fc.asyncProperty(mutated(sources(MANIFESTS)), async (text) => {
        const path = file();
        writeFileSync(path, text);
        await onlyWaveErrors(loadManifest(path, {}));
        await onlyWaveErrors(readManifest(path, {}).then((read) => read.errors.length));
        rmSync(path);
      }),
      { seed: SEED, numRuns: 250 },
    );
  });

  it('pipelines: every outcome is a value or WaveErrors', async () => {
    const manifest = await loadManifest(join(ROOT, 'wave.yaml'), {});
    const view: ManifestView = manifestView(await readManifest(join(ROOT, 'wave.yaml'), {}));
    await fc.assert(
      fc.asyncProperty(mutated(sources(PIPELINES)), async (text) => {
        const path = file();
        writeFileSync(path, text);
        await onlyWaveErrors(loadPipeline(path, manifest, {}));
        await onlyWaveErrors(readPipeline(path, view, {}).then((read) => read.errors.length));
        rmSync(path);
      }),
      { seed: SEED, numRuns: 250 },
    );
  });
});

describe('mutated files through `wave validate`', () => {
  it('exits 0 or 2, never with an internal error or a stack trace', async () => {
    const cases = fc.sample(fc.tuple(fc.boolean(), mutated(sources([join(ROOT, 'wave.yaml')])), mutated(sources([join(ROOT, 'pipelines', 'review.yaml')]))), {
      seed: SEED,
      numRuns: 8,
    });
    const dir = mkdtempSync(join(tmpdir(), 'wave-fuzz-cli-'));
    try {
      cpSync(join(ROOT, 'personas'), join(dir, 'personas'), { recursive: true });
      cpSync(join(ROOT, 'pipelines'), join(dir, 'pipelines'), { recursive: true });
      for (const [breakManifest, manifestText, pipelineText] of cases) {
        writeFileSync(join(dir, 'wave.yaml'), breakManifest ? manifestText : readFileSync(join(ROOT, 'wave.yaml'), 'utf8'));
        writeFileSync(join(dir, 'pipelines', 'review.yaml'), pipelineText);
        for (const args of [['validate'], ['validate', '--json']]) {
          const result = await runWave(args, { cwd: dir });
          expect([0, 2], result.stderr).toContain(result.code);
          expect(result.stderr).not.toContain('internal:');
          expect(result.stderr + result.stdout).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
          if (args.includes('--json')) expect(Array.isArray(JSON.parse(result.stdout))).toBe(true);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
