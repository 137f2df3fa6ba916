import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import type { ArtifactDef } from '../../config/schema/pipeline-schema.js';
import { WaveError } from '../../core/errors/errors.js';
import type { Redactor } from '../../redact.js';
import { copyOpened, openContained, type OpenedSource } from './artifact-copy.js';
import { removeTree } from '../workspace/workspace-files.js';
import { isInside } from '../../core/inside-path.js';
import { isSingleSegment } from '../workspace/workspace-paths.js';

export type { ArtifactDef };

export interface SavedArtifact {
  name: string;
  /** Absolute path of the copy in the run folder. */
  path: string;
  bytes: number;
  type?: string;
  /** Secrets replaced by [REDACTED] in the copy (the workspace file keeps them); absent when none. */
  redactions?: number;
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
  /** Replaces the run's secrets in the stored copies. */
  redactor?: Redactor;
  /** The most the copies may hold together; default ARTIFACT_CAP_BYTES. */
  maxBytes?: number;
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
  /** Opened inside its root (the workspace, or the attempt folder for stdout): copied from its descriptor. */
  source: OpenedSource;
  extension: string;
}

/**
 * Copies a finished step's declared artifacts into `destDir`: files and folders from the workspace (`source: file`,
 * the default; saved under the artifact's name with the file's extension) and the stdout file (`source: stdout`).
 * Each source is opened without following a symlink out of the workspace (contained-open.ts) and copied from that
 * descriptor: a path escaping the workspace, also through a symlink swapped in meanwhile, is refused with
 * artifact_path_invalid and nothing is copied. Absent artifacts are listed in `missing` (the caller fails the step
 * for a required one). The run's secrets are redacted in the copies when a redactor is given.
 */
export async function collectArtifacts(options: CollectArtifactsOptions): Promise<{ saved: SavedArtifact[]; missing: MissingArtifact[] }> {
  const planned: PlannedCopy[] = [];
  const missing: MissingArtifact[] = [];
  const saved: SavedArtifact[] = [];
  try {
    for (const def of options.defs) {
      const copy = await planCopy(options, def);
      if ('lookedAt' in copy) missing.push(copy);
      else planned.push(copy);
    }
    for (const { def, source, extension } of planned) {
      const path = join(options.destDir, def.name.endsWith(extension) ? def.name : def.name + extension);
      const spent = saved.reduce((sum, artifact) => sum + artifact.bytes, 0);
      const { bytes, redactions } = await copyOpened(source, path, { redactor: options.redactor, maxBytes: options.maxBytes, spent });
      saved.push({ name: def.name, path, bytes, ...(def.type === undefined ? {} : { type: def.type }), ...(redactions ? { redactions } : {}) });
    }
  } catch (error) {
    // A refusal found inside a folder undoes this step's copies too: all or nothing.
    for (const artifact of saved) await removeTree(artifact.path);
    throw error;
  } finally {
    for (const { source } of planned) await source.close();
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
    if (!options.stdoutPath) return absent('(no stdout recorded)');
    const label = { artifact: def.name, path: 'stdout' };
    const source = await openContained(dirname(options.stdoutPath), basename(options.stdoutPath), label).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!source) return absent(options.stdoutPath);
    return { def, source, extension: EXTENSION_BY_TYPE[def.type?.toLowerCase() ?? ''] ?? '' };
  }
  const written = def.path ?? def.name;
  const lexical = resolve(options.workspace, written);
  if (written.includes('\0') || isAbsolute(written) || !isInside(options.workspace, lexical, false)) {
    throw new WaveError('artifact_path_invalid', `artifact \`${def.name}\`: path \`${written}\` escapes the workspace ${options.workspace}; nothing was copied`, {
      hint: 'An artifact path is relative to the step workspace and stays inside it: no absolute path, no `..` out, no symlink out.',
    });
  }
  const source = await openContained(options.workspace, written, { artifact: def.name, path: written });
  if (!source) return absent(lexical);
  return { def, source, extension: source.entry.stats.isDirectory() ? '' : extname(lexical) };
}

export { injectArtifacts, type InjectArtifactsOptions, type InjectRef } from './artifact-inject.js';
