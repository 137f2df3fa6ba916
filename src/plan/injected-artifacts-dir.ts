import { existsSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { artifactDirError, staysInWorkspace } from '../config/checks/artifact-dir-check.js';
import type { Located } from '../config/load/load.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import { INJECTED_ARTIFACTS_DIR, WAVE_INJECTED_ARTIFACTS_DIR } from '../core/run-paths.js';
import type { WaveError } from '../core/errors/errors.js';

/**
 * Where a step's injected artifacts land, relative to its workspace: `runtime.artifacts.default_artifact_dir` when
 * the manifest sets it; Wave's `.agents/artifacts` in a project laid out the Wave way (its pipelines in
 * `.agents/pipelines/`), whose prompts read them there; else `.wave/artifacts`. A folder outside the workspace is
 * a problem of the manifest, reported at the key.
 */
export function planInjectedArtifactsDir(manifest: Located<Manifest>): string | WaveError {
  const configured = manifest.value.runtime?.artifacts?.default_artifact_dir;
  if (!configured) return existsSync(join(manifest.dir, '.agents', 'pipelines')) ? WAVE_INJECTED_ARTIFACTS_DIR : INJECTED_ARTIFACTS_DIR;
  if (staysInWorkspace(configured)) return normalize(configured);
  return artifactDirError(configured, manifest.locate(['runtime', 'artifacts', 'default_artifact_dir']));
}
