import { resolve } from 'node:path';
import type { Located } from './located.js';
import type { Manifest } from '../schema/manifest-schema.js';
import type { ManifestView } from '../checks/step-checks.js';

/** What stands for the manifest file when there is none: recorded as a run's manifest, so `wave resume` uses the built-in one again. */
export const BUILTIN_MANIFEST_FILE = '(built-in manifest)';

/**
 * The manifest of a project without a wave.yaml: the minimal valid one, declaring nothing, so only command steps run.
 * It is rooted at `dir` (where the search for a wave.yaml started), as a wave.yaml there would be: runs go to <dir>/.wave.
 */
export function builtinManifest(dir: string): Located<Manifest> {
  const file = BUILTIN_MANIFEST_FILE;
  return { file, dir: resolve(dir), value: { kind: 'WaveManifest' }, locate: () => ({ file }), envTaken: {}, warnings: [] };
}

/** Whether a manifest (or a run's recorded manifest file) is the built-in one. */
export function isBuiltinManifest(file: string): boolean {
  return file === BUILTIN_MANIFEST_FILE;
}

/** What a pipeline is checked against without a manifest: anything that needs one is reported as missing it, searched from `dir`. */
export function builtinManifestView(dir: string): ManifestView {
  return { dir: resolve(dir), noManifest: { searchedFrom: resolve(dir) } };
}
