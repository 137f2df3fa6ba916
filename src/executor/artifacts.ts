import { stat } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import type { ArtifactDef } from '../config/pipeline-schema.js';
import { WaveError } from '../errors.js';
import { copyContained } from './artifact-copy.js';
import { removeTree } from './workspace-files.js';
import { isSingleSegment, resolveInside } from './workspace-paths.js';

export type { ArtifactDef };

export interface SavedArtifact {
  name: string;
  /** Absolute path of the copy in the run folder. */
  path: string;
  bytes: number;
  type?: string;
}

export interface MissingArtifact {
  name: string;
  /** Absolute path where the artifact was expected. */
  lookedAt: string;
  required: boolean;
}

export interface CollectArtifactsOptions {
  workspace: string;
  defs: readonly ArtifactDef[];
  /** The step's stdout file, for `source: stdout`. */
  stdoutPath?: string;
  /** `<run>/artifacts/<step>`. */
  destDir: string;
}

/** File extensions for stdout artifacts by declared type, so a saved copy opens as what it is. */
const EXTENSION_BY_TYPE: Record<string, string> = {
  json: '.json',
  markdown: '.md',
  md: '.md',
  text: '.txt',
  txt: '.txt',
  yaml: '.yaml',
  yml: '.yaml',
  html: '.html',
  csv: '.csv',
};

/** An artifact is required unless it says `required: false`: a step declares what it produces. */
export function isRequired(def: ArtifactDef): boolean {
  return def.required ?? true;
}

interface PlannedCopy {
  def: ArtifactDef;
  from: string;
  /** Folder a followed symlink must stay in. */
  root: string;
  extension: string;
}

/**
 * Copies a finished step's declared artifacts into `destDir`: files and folders from the workspace (`source: file`,
 * the default; saved under the artifact's name with the file's extension) and the stdout file (`source: stdout`).
 * A path escaping the workspace is refused with artifact_path_invalid before anything is copied; absent artifacts
 * are listed in `missing` (the caller fails the step for a required one).
 */
export async function collectArtifacts(options: CollectArtifactsOptions): Promise<{ saved: SavedArtifact[]; missing: MissingArtifact[] }> {
  const planned: PlannedCopy[] = [];
  const missing: MissingArtifact[] = [];
  for (const def of options.defs) {
    const copy = await planCopy(options, def);
    if ('lookedAt' in copy) missing.push(copy);
    else planned.push(copy);
  }
  const saved: SavedArtifact[] = [];
  try {
    for (const { def, from, root, extension } of planned) {
      const path = join(options.destDir, def.name.endsWith(extension) ? def.name : def.name + extension);
      const bytes = await copyContained(from, path, root, { artifact: def.name, path: def.path ?? def.name });
      saved.push({ name: def.name, path, bytes, ...(def.type === undefined ? {} : { type: def.type }) });
    }
  } catch (error) {
    // A refusal found inside a folder undoes this step's copies too: all or nothing.
    for (const artifact of saved) await removeTree(artifact.path);
    throw error;
  }
  return { saved, missing };
}

async function planCopy(options: CollectArtifactsOptions, def: ArtifactDef): Promise<PlannedCopy | MissingArtifact> {
  if (!isSingleSegment(def.name)) {
    throw new WaveError('artifact_path_invalid', `artifact name \`${def.name}\` must be a plain file name`, {
      hint: 'Name artifacts with letters, digits, `-`, `_` and `.`, without `/`.',
    });
  }
  const absent = (lookedAt: string): MissingArtifact => ({ name: def.name, lookedAt, required: isRequired(def) });
  if (def.source === 'stdout') {
    if (!options.stdoutPath || !(await exists(options.stdoutPath))) return absent(options.stdoutPath ?? '(no stdout recorded)');
    const extension = EXTENSION_BY_TYPE[def.type?.toLowerCase() ?? ''] ?? '';
    return { def, from: options.stdoutPath, root: dirname(options.stdoutPath), extension };
  }
  const written = def.path ?? def.name;
  const from = await resolveInside(options.workspace, written);
  if (!from) {
    throw new WaveError('artifact_path_invalid', `artifact \`${def.name}\`: path \`${written}\` escapes the workspace ${options.workspace}; nothing was copied`, {
      hint: 'An artifact path is relative to the step workspace and stays inside it: no absolute path, no `..` out, no symlink out.',
    });
  }
  if (!(await exists(from))) return absent(resolve(options.workspace, written));
  const isFolder = (await stat(from)).isDirectory();
  return { def, from, root: options.workspace, extension: isFolder ? '' : extname(from) };
}

/** True when `path` (followed if a symlink) exists. */
async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export { injectArtifacts, INJECTED_ARTIFACTS_DIR, type InjectArtifactsOptions, type InjectRef } from './artifact-inject.js';
