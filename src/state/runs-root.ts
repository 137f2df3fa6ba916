import { findProjectRoot } from '../config/load/paths.js';
import { runsRootOf } from '../core/run-paths.js';

/** The runs folder of the manifest `-m` names, else of the nearest wave.yaml from cwd upwards, else of cwd (where `wave run` records runs without one). */
export function findRunsRoot(cwd: string, explicitManifest?: string): string {
  return runsRootOf(findProjectRoot(cwd, explicitManifest));
}
