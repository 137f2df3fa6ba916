import { isAbsolute, relative } from 'node:path';
import { withForgePersonas } from '../config/load/forge-personas.js';
import { builtinManifest, builtinManifestView } from '../config/load/builtin-manifest.js';
import {
  listPipelineFiles,
  located,
  manifestFileOf,
  noManifestError,
  readManifest,
  readPipeline,
  resolvePipelinePath,
  validationView,
  type Located,
  type ManifestView,
} from '../config/load/load.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import type { Pipeline } from '../config/schema/pipeline-schema.js';
import { WaveError, WaveErrors, type WaveErrorJSON } from '../core/errors/errors.js';
import { buildPlan } from '../plan/plan.js';
import { worktreeWarnings } from '../engine/workspace/worktree-preflight.js';

/** One checked file and its problems. */
export interface FileReport {
  file: string;
  errors: WaveError[];
  /** What loads but is reported: a setting nothing in a run here uses. */
  warnings: WaveError[];
  /** A pipeline with `metadata.disabled: true`: still checked, listed as disabled (`wave run` refuses it). */
  disabled?: boolean;
}

/** One problem as `wave validate --json` prints it: the error's JSON, its severity, and the file it is in. */
export interface ValidationProblem extends WaveErrorJSON {
  severity: 'error' | 'warning';
  file: string;
}

/** A checked file's errors, then its warnings, as `wave validate --json` prints them. */
export function problemsOf(report: FileReport): ValidationProblem[] {
  const entry = (severity: 'error' | 'warning') => (e: WaveError) => ({ ...e.toJSON(), severity, file: e.location?.file ?? report.file });
  return [...report.errors.map(entry('error')), ...report.warnings.map(entry('warning'))];
}

/** Checks the manifest, then each named pipeline (or every pipeline of the project). */
export async function validateProject(pipelines: readonly string[], manifestArg: string | undefined, cwd: string): Promise<FileReport[]> {
  // The shown name is also the one read, so it is relative to the process's folder (the CLI's cwd; not the API's).
  const shown = (path: string) => displayPath(path, process.cwd());
  let manifestPath: string | undefined;
  try {
    manifestPath = manifestFileOf(cwd, manifestArg);
  } catch (error) {
    return [{ file: manifestArg ?? 'wave.yaml', errors: [asWaveError(error)], warnings: [] }];
  }
  // Without a wave.yaml, pipelines are checked against the built-in manifest (commands only), rooted here.
  const manifest = manifestPath === undefined ? undefined : await readManifest(shown(manifestPath));
  const view = manifest ? await validationView(manifest) : builtinManifestView(cwd);
  const reports: FileReport[] = manifest ? [{ file: manifest.file, errors: manifest.errors, warnings: manifest.warnings }] : [];
  const targets: Array<{ file: string } | { arg: string; error: WaveError }> = [];
  if (pipelines.length === 0) targets.push(...listPipelineFiles(view.dir).map((file) => ({ file })));
  for (const arg of pipelines) {
    try {
      targets.push({ file: resolvePipelinePath(arg, view.dir, cwd) });
    } catch (error) {
      targets.push({ arg, error: asWaveError(error) });
    }
  }
  // Nothing to check and no manifest: most likely the wrong folder, said as before.
  if (!manifest && targets.length === 0) return [{ file: 'wave.yaml', errors: [noManifestError(cwd)], warnings: [] }];
  const planned = manifest ? (manifest.errors.length === 0 ? located(manifest) : undefined) : builtinManifest(cwd);
  for (const target of targets) {
    if ('error' in target) {
      reports.push({ file: target.arg, errors: [target.error], warnings: [] });
      continue;
    }
    const read = await readPipeline(shown(target.file), view);
    const errors = read.errors.length === 0 && planned ? planProblems(planned, forOneForge(located(read), view)) : read.errors;
    const worktrees = read.value && read.locator ? await worktreeWarnings(read.value.steps, read.locator.locate, view.dir) : [];
    reports.push({ file: read.file, errors, warnings: [...read.warnings, ...worktrees], ...(read.value?.metadata.disabled === true ? { disabled: true } : {}) });
  }
  return reports;
}

/** The pipeline planned with its persona names resolved for one forge they may resolve to (all of them were checked). */
function forOneForge(pipeline: Located<Pipeline>, view: ManifestView): Located<Pipeline> {
  const forge = view.forge;
  const type = forge?.types[0];
  if (!forge || !type) return pipeline;
  const info = { ...forge.info, type };
  return { ...pipeline, value: withForgePersonas(pipeline.value, info), forge: info };
}

/** What only planning finds (unknown template variables), for a pipeline whose format is valid. */
function planProblems(manifest: Located<Manifest>, pipeline: Located<Pipeline>): WaveError[] {
  try {
    buildPlan(manifest, pipeline, { input: '' });
    return [];
  } catch (error) {
    if (error instanceof WaveErrors) return error.errors;
    return [asWaveError(error)];
  }
}

function asWaveError(error: unknown): WaveError {
  if (error instanceof WaveError) return error;
  throw error;
}

/** A path relative to the working directory when it lies below it, else absolute. */
function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}
