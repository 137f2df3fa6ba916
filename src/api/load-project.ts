import { basename, extname, resolve } from 'node:path';
import { listPipelineFiles, loadPipeline, loadProjectManifest } from '../config/load/load.js';
import type { Manifest, Pipeline } from './format-types.js';
import type { WaveError } from '../core/errors/errors.js';
import { withApiErrors } from './wave-problems.js';

/** A pipeline of the project, loaded and checked. */
export interface ProjectPipeline {
  /** The name `startRun` takes: the file's name without its extension. */
  name: string;
  file: string;
  pipeline: Pipeline;
}

/** A project's manifest and pipelines as a run loads them. */
export interface Project {
  /** The folder every relative path of the manifest resolves from. */
  dir: string;
  /** The manifest file (a built-in manifest for command steps when the project has no wave.yaml). */
  manifestFile: string;
  manifest: Manifest;
  pipelines: ProjectPipeline[];
  /** What loads but is reported (a setting nothing in a run uses). */
  warnings: WaveError[];
}

/**
 * Loads the project in `dir` (the nearest wave.yaml from it up, else the built-in manifest) and every pipeline under
 * its pipelines/ folders, as strictly as a run does; throws a WaveError (a WaveProblems for several) at the first bad file.
 */
export async function loadProject(dir: string, options: { manifest?: string } = {}): Promise<Project> {
  return withApiErrors(async () => {
    const manifest = await loadProjectManifest(resolve(dir), options.manifest);
    const warnings: WaveError[] = [...manifest.warnings];
    const pipelines: ProjectPipeline[] = [];
    for (const file of listPipelineFiles(manifest.dir)) {
      const loaded = await loadPipeline(file, manifest);
      warnings.push(...loaded.warnings);
      pipelines.push({ name: basename(file, extname(file)), file, pipeline: loaded.value });
    }
    return { dir: manifest.dir, manifestFile: manifest.file, manifest: manifest.value, pipelines, warnings };
  });
}
