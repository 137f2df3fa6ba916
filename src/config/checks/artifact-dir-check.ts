import { isAbsolute, normalize, sep } from 'node:path';
import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { isRecord } from '../load/value-path.js';

/** A path meant relative to a step's workspace that leads out of it: absolute, `..`, or under `..`. */
export function leavesWorkspace(path: string): boolean {
  const clean = normalize(path);
  return isAbsolute(clean) || clean === '..' || clean.startsWith(`..${sep}`);
}

/** A folder relative to a step's workspace and inside it (not absolute, not `..`, not the workspace itself). */
export function staysInWorkspace(dir: string): boolean {
  return !leavesWorkspace(dir) && normalize(dir) !== '.';
}

/** `runtime.artifacts.default_artifact_dir` must name a folder inside a step's workspace: artifacts are written and injected there. */
export function artifactDirErrors(root: Record<string, unknown>, locator: Locator): WaveError[] {
  const artifacts = isRecord(root.runtime) ? root.runtime.artifacts : undefined;
  const dir = isRecord(artifacts) ? artifacts.default_artifact_dir : undefined;
  if (typeof dir !== 'string' || dir === '' || staysInWorkspace(dir)) return [];
  return [artifactDirError(dir, locator.locate(['runtime', 'artifacts', 'default_artifact_dir']))];
}

/** The problem, at its location. */
export function artifactDirError(dir: string, location: ReturnType<Locator['locate']>): WaveError {
  return new WaveError('wrong_type', `\`runtime.artifacts.default_artifact_dir\` is \`${dir}\`, which is not a folder inside a step's workspace`, {
    location,
    hint: 'Give a folder relative to the workspace, such as .agents/artifacts.',
  });
}
