import { dirname, resolve } from 'node:path';
import { findManifest } from '../config/load.js';
import { runsRootOf } from '../core/run-paths.js';

/** Where a manifest's runs live: `<manifestDir>/.wave/runs`. */
export function runsRootFor(manifestFile: string): string {
  return runsRootOf(dirname(resolve(manifestFile)));
}

/** The runs folder of the manifest `-m` names, else of the nearest wave.yaml from cwd upwards. */
export function findRunsRoot(cwd: string, explicitManifest?: string): string {
  return runsRootFor(findManifest(cwd, explicitManifest));
}
