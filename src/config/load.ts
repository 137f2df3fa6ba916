import { dirname, resolve } from 'node:path';
import type { SourceLocation } from '../errors.js';
import type { EnvTaken } from './env-expand.js';
import { checkManifestReferences } from './manifest-checks.js';
import { ManifestSchema, type Manifest } from './manifest-schema.js';
import { checkPipelineReferences } from './pipeline-checks.js';
import { PipelineSchema, type Pipeline } from './pipeline-schema.js';
import { readConfig, valueOrThrow, type ConfigRead } from './read-config.js';
import type { ManifestView } from './step-checks.js';
import { isRecord } from './value-path.js';

export { findManifest, listPipelineFiles, resolvePipelinePath } from './paths.js';
export type { ManifestView } from './step-checks.js';

/** A checked configuration value that still knows where each of its parts was written. */
export interface Located<T> {
  /** The file as the caller named it (used in every location). */
  file: string;
  /** The absolute folder holding the file; for the manifest, where every relative path resolves from. */
  dir: string;
  value: T;
  /** Position of the node at a path such as ['steps', 0, 'persona'] (falls back to the nearest parent). */
  locate(path: readonly PropertyKey[]): SourceLocation;
  /** Variables the file's `${VAR}` references took from the environment: values the run must redact. */
  envTaken: Readonly<EnvTaken>;
}

export { adapterTypeOf } from './adapter-type.js';

/** Reads a manifest and reports every problem in it; never throws. */
export async function readManifest(file: string, env: NodeJS.ProcessEnv = process.env): Promise<ConfigRead<Manifest>> {
  const dir = dirname(resolve(file));
  return readConfig(file, 'manifest', ManifestSchema, env, (raw, locator) => checkManifestReferences(raw, dir, locator));
}

/** What a pipeline may reference, taken from a manifest read (even a partly invalid one). */
export function manifestView(read: ConfigRead<Manifest>): ManifestView {
  const dir = dirname(resolve(read.file));
  if (!isRecord(read.raw)) return { dir };
  const names = (value: unknown) => (isRecord(value) ? Object.keys(value) : []);
  return { dir, personas: names(read.raw.personas), adapters: names(read.raw.adapters) };
}

/** Reads a pipeline against what the manifest declares, reporting every problem; never throws. */
export async function readPipeline(file: string, view: ManifestView, env: NodeJS.ProcessEnv = process.env): Promise<ConfigRead<Pipeline>> {
  // Imported here, not above: ajv is for commands that read pipelines, not for `wave runs` finding its folder.
  const { schemaProblems } = await import('../contracts/schema-validator.js');
  const checked: ManifestView = { ...view, inspectSchema: schemaProblems };
  return readConfig(file, 'pipeline', PipelineSchema, env, (raw, locator) => checkPipelineReferences(raw, checked, locator));
}

/** A read without problems as a Located value; throws WaveErrors holding every problem otherwise. */
export function located<T>(read: ConfigRead<T>): Located<T> {
  const { value, locator } = valueOrThrow(read);
  return { file: read.file, dir: dirname(resolve(read.file)), value, locate: locator.locate, envTaken: read.envTaken };
}

/** Loads wave.yaml strictly: throws WaveErrors holding every problem found in the file. */
export async function loadManifest(file: string, env: NodeJS.ProcessEnv = process.env): Promise<Located<Manifest>> {
  return located(await readManifest(file, env));
}

/** Loads a pipeline strictly against a loaded manifest: throws WaveErrors holding every problem found. */
export async function loadPipeline(file: string, manifest: Located<Manifest>, env: NodeJS.ProcessEnv = process.env): Promise<Located<Pipeline>> {
  const view: ManifestView = {
    dir: manifest.dir,
    personas: Object.keys(manifest.value.personas ?? {}),
    adapters: Object.keys(manifest.value.adapters ?? {}),
  };
  return located(await readPipeline(file, view, env));
}
