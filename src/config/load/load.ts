import { dirname, resolve } from 'node:path';
import type { WaveError } from '../../core/errors/errors.js';
import { checkManifestReferences } from '../checks/manifest-checks.js';
import { ManifestSchema, type Manifest } from '../schema/manifest-schema.js';
import { checkPipelineReferences } from '../checks/pipeline-checks.js';
import { PipelineSchema, type Pipeline } from '../schema/pipeline-schema.js';
import { projectFacts } from './project-placeholders.js';
import { readConfig, valueOrThrow, type ConfigRead } from './read-config.js';
import type { ManifestView } from '../checks/step-checks.js';
import { isRecord } from './value-path.js';
import { detectForge } from '../../core/forge/forge-detect.js';
import type { ForgeInfo } from '../../core/forge/forge.js';
import { everyForge, runForge, withForgePersonas } from './forge-personas.js';
import type { Located } from './located.js';
import { builtinManifest, builtinManifestView, isBuiltinManifest } from './builtin-manifest.js';
import { manifestFileOf } from './paths.js';
import { loopBodyAddress } from './loop-body.js';
import { withAbsoluteModules } from './plugin-module-paths.js';

export { findManifest, findProjectRoot, listPipelineFiles, manifestFileOf, nearestManifest, noManifestError, resolvePipelinePath } from './paths.js';
export type { ManifestView } from '../checks/step-checks.js';
export type { Located } from './located.js';

export { adapterTypeOf } from '../schema/adapter-type.js';

/** Reads a manifest and reports every problem in it; never throws. */
export async function readManifest(file: string, env: NodeJS.ProcessEnv = process.env): Promise<ConfigRead<Manifest>> {
  const dir = dirname(resolve(file));
  const read = await readConfig(file, 'manifest', ManifestSchema, env, (raw, locator) => checkManifestReferences(raw, dir, locator));
  return read.value ? { ...read, value: withAbsoluteModules(read.value, dir) } : read;
}

/** What a pipeline may reference, taken from a manifest read (even a partly invalid one). */
export function manifestView(read: ConfigRead<Manifest>): ManifestView {
  const dir = dirname(resolve(read.file));
  if (!isRecord(read.raw)) return { dir };
  const names = (value: unknown) => (isRecord(value) ? Object.keys(value) : []);
  return { dir, personas: names(read.raw.personas), adapters: names(read.raw.adapters), project: projectFacts(read.raw.project) };
}

/**
 * What `wave validate` checks pipelines against: the manifest's view, with persona names using `{{ forge.* }}`
 * checked for every forge type (only `metadata.forge`'s when set) and the host, owner and repo of the git remote.
 */
export async function validationView(read: ConfigRead<Manifest>, env: NodeJS.ProcessEnv = process.env): Promise<ManifestView> {
  const view = manifestView(read);
  const override = forgeOverrideOf(read.raw);
  return { ...view, forge: everyForge(await detectForge(view.dir, override, env), override) };
}

function forgeOverrideOf(raw: unknown): string | undefined {
  const forge = isRecord(raw) && isRecord(raw.metadata) ? raw.metadata.forge : undefined;
  return typeof forge === 'string' && forge !== '' ? forge : undefined;
}

/** Reads a pipeline against what the manifest declares, reporting every problem; never throws. */
export async function readPipeline(file: string, view: ManifestView, env: NodeJS.ProcessEnv = process.env): Promise<ConfigRead<Pipeline>> {
  // Imported here, not above: ajv is for commands that read pipelines, not for `wave runs` finding its folder.
  const { schemaProblems } = await import('../../json-schema/schema-validator.js');
  const checked: ManifestView = { ...view, inspectSchema: schemaProblems };
  const read = await readConfig(file, 'pipeline', PipelineSchema, env, (raw, locator, stripped) => checkPipelineReferences(raw, checked, locator, stripped.suppressed));
  // Each loop's sub-steps are checked as the pipeline each of its iterations runs.
  for (const stepId of loopStepIds(read.raw)) {
    const body = await readPipeline(loopBodyAddress(file, stepId, 0), view, env);
    // What the body shares with its pipeline (its skills, its requirements) is reported once.
    read.errors.push(...body.errors.filter((error) => !read.errors.some((known) => sameProblem(known, error))));
    read.warnings.push(...body.warnings.filter((warning) => !read.warnings.some((known) => sameProblem(known, warning))));
  }
  return read;
}

function sameProblem(a: WaveError, b: WaveError): boolean {
  return a.code === b.code && a.message === b.message && a.location?.line === b.location?.line && a.location?.column === b.location?.column;
}

/** The ids of a raw pipeline's loop steps that have sub-steps. */
function loopStepIds(raw: unknown): string[] {
  const steps = isRecord(raw) && Array.isArray(raw.steps) ? raw.steps : [];
  return steps.flatMap((step) => (isRecord(step) && typeof step.id === 'string' && isRecord(step.loop) && Array.isArray(step.loop.steps) ? [step.id] : []));
}

/** A read without problems as a Located value; throws WaveErrors holding every problem otherwise. */
export function located<T>(read: ConfigRead<T>): Located<T> {
  const { value, locator } = valueOrThrow(read);
  return { file: read.file, dir: dirname(resolve(read.file)), value, locate: locator.locate, envTaken: read.envTaken, warnings: read.warnings };
}

/** Loads wave.yaml strictly: throws WaveErrors holding every problem found in the file. */
export async function loadManifest(file: string, env: NodeJS.ProcessEnv = process.env): Promise<Located<Manifest>> {
  return located(await readManifest(file, env));
}

/** The manifest a command runs with: -m's, else the nearest wave.yaml from `cwd` up, else the built-in one rooted at `cwd`. */
export async function loadProjectManifest(cwd: string, explicit?: string, env: NodeJS.ProcessEnv = process.env): Promise<Located<Manifest>> {
  const file = manifestFileOf(cwd, explicit);
  return file === undefined ? builtinManifest(cwd) : loadManifest(file, env);
}

/**
 * Loads a pipeline strictly against a loaded manifest: throws WaveErrors holding every problem found. Persona names
 * using `{{ forge.* }}` are resolved for the project's forge (its git remote, or `metadata.forge`), as Wave does before
 * running, so the plan sees declared personas. `known`: the forge already found for this manifest, taken as it is.
 */
export async function loadPipeline(file: string, manifest: Located<Manifest>, env: NodeJS.ProcessEnv = process.env, known?: ForgeInfo): Promise<Located<Pipeline>> {
  const forge = known ?? (await detectForge(manifest.dir, manifest.value.metadata?.forge, env));
  const declared: ManifestView = isBuiltinManifest(manifest.file)
    ? builtinManifestView(manifest.dir)
    : {
        dir: manifest.dir,
        personas: Object.keys(manifest.value.personas ?? {}),
        adapters: Object.keys(manifest.value.adapters ?? {}),
        project: projectFacts(manifest.value.project),
      };
  const view: ManifestView = { ...declared, forge: runForge(forge) };
  const pipeline = located(await readPipeline(file, view, env));
  return { ...pipeline, value: withForgePersonas(pipeline.value, forge), forge };
}
