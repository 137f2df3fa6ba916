import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { WaveError, WaveErrors } from '../../core/errors/errors.js';
import { expandEnvInDocument, hideTakenValues, type EnvTaken } from './env-expand.js';
import { createLocator, type Locator } from './locator.js';
import { fileOfAddress, loopBodyOf } from './loop-body.js';
import { stripUnsupportedFeatures, type StrippedFeatures } from '../checks/unsupported-features.js';
import { isRecord } from './value-path.js';
import { MAX_ALIAS_COUNT, MAX_FILE_BYTES, capErrors, parseYamlSource } from './yaml-source.js';
import { describeValue, issuesToErrors } from './zod-issues.js';

/** More problems than this in one file are summarised in a last line. */
const MAX_PROBLEMS = 100;

export type ConfigKind = 'manifest' | 'pipeline';
const KIND_NAMES: Record<ConfigKind, string> = { manifest: 'WaveManifest', pipeline: 'WavePipeline' };

/** A configuration file read as far as it could be: its problems, and what could be parsed. */
export interface ConfigRead<T> {
  /** The file as the caller named it (used in every location). */
  file: string;
  /** The parsed value after env expansion, with unsupported features removed; undefined if unreadable. */
  raw: unknown;
  /** The schema-checked value, when the schema check passed. */
  value?: T;
  locator?: Locator;
  errors: WaveError[];
  /** Problems that do not stop the file loading (a setting nothing in a run uses), each with its location and hint. */
  warnings: WaveError[];
  /** Variables its `${VAR}` references took from the environment (secrets to redact); empty when unread. */
  envTaken: EnvTaken;
}

/** Extra checks run on the raw value once it is parsed (cross-references, files); `stripped` says what was already reported. */
export type RawCheck = (raw: unknown, locator: Locator, stripped: StrippedFeatures) => WaveError[];

/**
 * Reads, parses and checks one configuration file, collecting every problem instead of stopping at
 * the first. Never throws: every failure, however malformed the input, becomes a WaveError.
 */
export async function readConfig<T>(file: string, kind: ConfigKind, schema: z.ZodType<T>, env: NodeJS.ProcessEnv, check: RawCheck): Promise<ConfigRead<T>> {
  const fail = (errors: WaveError[]): ConfigRead<T> => ({ file, raw: undefined, errors, warnings: [], envTaken: {} });
  // A loop body's address reads its pipeline's file; locations name that file.
  const base = fileOfAddress(file);
  let text: string;
  try {
    text = await readText(base);
  } catch (error) {
    return fail(asWaveErrors(error));
  }
  let source;
  try {
    source = parseYamlSource(text, base);
  } catch (error) {
    return fail(asWaveErrors(error));
  }
  let locator = createLocator(source);
  const envTaken: EnvTaken = {};
  // As in Wave, a pipeline's `${VAR}` belongs to the shell of its step (a command's variable, not the loader's).
  const errors = kind === 'manifest' ? expandEnvInDocument(source, env, envTaken) : [];
  let raw: unknown;
  try {
    raw = source.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    return fail([
      new WaveError('input_too_large', `refusing to load: ${error instanceof Error ? error.message : String(error)}`, {
        location: { file, line: 1, column: 1 },
        hint: 'Use fewer YAML aliases (*name); a Wave file rarely needs any.',
      }),
    ]);
  }
  const kindError = checkKind(raw, kind, locator);
  if (kindError) return { file, raw, locator, errors: hideTakenValues([...errors, kindError], envTaken), warnings: [], envTaken };
  try {
    ({ raw, locator } = loopBodyOf(raw, locator, file));
  } catch (error) {
    return fail(asWaveErrors(error));
  }

  const stripped = stripUnsupportedFeatures(raw, kind, locator);
  errors.push(...stripped.errors);
  // Each file is parsed once per process: compiling zod's fast path would cost more than it saves.
  const parsed = schema.safeParse(raw, { jitless: true });
  if (!parsed.success) errors.push(...issuesToErrors(parsed.error.issues, { schema, root: raw, locator, suppressed: stripped.suppressed }));
  errors.push(...check(raw, locator, stripped));
  const sorted = sortByPosition(withoutEchoesOfEnv(errors));
  const warnings = hideTakenValues(sortByPosition(stripped.warnings), envTaken);
  return { file, raw, locator, value: parsed.success ? parsed.data : undefined, errors: hideTakenValues(capErrors(sorted, MAX_PROBLEMS), envTaken), warnings, envTaken };
}

/** Throws the collected problems, or returns the checked value with its locator. */
export function valueOrThrow<T>(read: ConfigRead<T>): { value: T; locator: Locator } {
  if (read.errors.length > 0 || read.value === undefined || read.locator === undefined) {
    throw new WaveErrors(read.errors.length > 0 ? read.errors : [new WaveError('internal', `${read.file} could not be read`)]);
  }
  return { value: read.value, locator: read.locator };
}

async function readText(file: string): Promise<string> {
  const path = resolve(file);
  const info = await stat(path).catch(() => undefined);
  if (!info) {
    throw new WaveError('file_not_found', `${file} does not exist`, { location: { file }, hint: 'Check the path.' });
  }
  if (!info.isFile()) throw new WaveError('io_error', `${file} is not a file`, { location: { file }, hint: 'Name a YAML file.' });
  if (info.size > MAX_FILE_BYTES) {
    throw new WaveError('input_too_large', `refusing to load: the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`, {
      location: { file },
      hint: 'A Wave manifest or pipeline is a small hand-written file; check that this is the file you meant.',
    });
  }
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new WaveError('io_error', `${file} could not be read: ${(error as Error).message}`, { location: { file }, cause: error });
  }
}

function asWaveErrors(error: unknown): WaveError[] {
  if (error instanceof WaveErrors) return error.errors;
  if (error instanceof WaveError) return [error];
  throw error;
}

/** An empty file, a non-mapping, or a file of the other kind gets one clear error instead of many. */
function checkKind(raw: unknown, kind: ConfigKind, locator: Locator): WaveError | undefined {
  const expected = KIND_NAMES[kind];
  if (!isRecord(raw)) {
    return new WaveError('wrong_type', `a ${kind} must be a mapping starting with \`kind: ${expected}\`, not ${raw == null ? 'an empty file' : describeValue(raw)}`, {
      location: locator.locate([]),
      hint: kind === 'manifest' ? 'Run `wave init` for a working example.' : 'See pipelines/review.yaml from `wave init` for a working example.',
    });
  }
  if (typeof raw.kind === 'string' && raw.kind !== expected && Object.values(KIND_NAMES).includes(raw.kind)) {
    return new WaveError('wrong_type', `this file is a ${raw.kind === KIND_NAMES.manifest ? 'manifest' : 'pipeline'}, but a ${kind} was expected here`, {
      location: locator.locate(['kind']),
      hint: kind === 'manifest' ? 'Pass the manifest with -m wave.yaml.' : 'Pass a pipeline file, e.g. pipelines/review.yaml.',
    });
  }
  return undefined;
}

/** An unset ${VAR} left its text in place; a type error on that same value would only repeat it. */
function withoutEchoesOfEnv(errors: WaveError[]): WaveError[] {
  const where = (e: WaveError) => `${e.location?.line}:${e.location?.column}`;
  const unset = new Set(errors.filter((e) => e.code === 'env_unset').map(where));
  return errors.filter((e) => e.code === 'env_unset' || !unset.has(where(e)));
}

function sortByPosition(errors: WaveError[]): WaveError[] {
  const key = (e: WaveError) => [e.location?.line ?? 0, e.location?.column ?? 0] as const;
  return errors
    .map((error, order) => ({ error, order }))
    .sort((a, b) => {
      const [la, ca] = key(a.error);
      const [lb, cb] = key(b.error);
      return la - lb || ca - cb || a.order - b.order;
    })
    .map((entry) => entry.error);
}
