import { cp, mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Step } from '../../config/schema/pipeline-schema.js';
import { WaveError } from '../../core/errors/errors.js';
import { firstChange, fingerprintTree, type TreeFingerprint } from './mount-fingerprint.js';
import { copySubset, type SubsetCopy } from './mount-subset.js';
import { makeTreeReadonly, removeTree } from './workspace-files.js';
import { isInside } from '../../core/inside-path.js';
import { realpathOfNearest, resolveInside } from './workspace-paths.js';

/** One `workspace.mount` entry as the pipeline declares it. */
export type MountSpec = NonNullable<NonNullable<Step['workspace']>['mount']>[number];

/** A mount copied readonly, with what it held, for verifyReadonlyMounts after the step. */
export interface ReadonlyMount {
  /** The source as the pipeline wrote it (for messages). */
  source: string;
  /** Absolute path of the copy in the workspace. */
  path: string;
  fingerprint: TreeFingerprint;
}

export interface ApplyMountsOptions {
  workspace: string;
  projectRoot: string;
  mounts: readonly MountSpec[];
  /** Folders never copied even when below a source (the workspace root itself, when inside the project). */
  exclude?: readonly string[];
  /** Per mount (same order): the entries of its `subset_from` list, when only those files are copied. */
  subsets?: ReadonlyArray<readonly unknown[] | undefined>;
  /** Told what each subset copy did, by the mount's index. */
  onSubset?: (index: number, copy: SubsetCopy) => void;
}

/** The state folder of Wave. */
const WAVE_FOLDER = '.wave';

/**
 * Copies each mount's source (resolved from projectRoot, never the cwd) to `<workspace>/<target>`, replacing
 * what was there; readonly ones are made unwritable and fingerprinted. Returns the readonly mounts.
 */
export async function applyMounts(options: ApplyMountsOptions): Promise<ReadonlyMount[]> {
  const readonly: ReadonlyMount[] = [];
  const excluded = await Promise.all((options.exclude ?? []).map((p) => realpathOfNearest(resolve(p))));
  for (const [index, mount] of options.mounts.entries()) {
    const source = await resolveSource(options.projectRoot, mount.source);
    const target = await resolveTarget(options.workspace, mount, source);
    await removeTree(target);
    const subset = options.subsets?.[index];
    if (subset) {
      const copy = await copySubsetTree(mount, source, target, subset, [await realpathOfNearest(target), ...excluded]);
      options.onSubset?.(index, copy);
    } else await copyMountTree(source, target, [await realpathOfNearest(target), ...excluded]);
    if (mount.mode === 'readonly') {
      await makeTreeReadonly(target);
      readonly.push({ source: mount.source, path: target, fingerprint: await fingerprintTree(target) });
    }
  }
  return readonly;
}

/** A nested Wave state folder is never part of a mount. */
function isWaveFolder(path: string, source: string): boolean {
  return path !== source && basename(path) === WAVE_FOLDER;
}

/**
 * Copies `source` to `target` exactly (symlinks kept as they are), except nested `.wave` folders and the
 * `blocked` paths: a source holding the workspace is copied child by child around it, never into itself.
 */
async function copyMountTree(source: string, target: string, blocked: readonly string[], top = source): Promise<void> {
  if (!blocked.some((path) => isInside(source, path))) {
    await cp(source, target, { recursive: true, verbatimSymlinks: true, filter: (from) => !isWaveFolder(from, top) });
    return;
  }
  await mkdir(target, { recursive: true });
  for (const name of (await readdir(source)).sort()) {
    const from = join(source, name);
    if (blocked.includes(from) || isWaveFolder(from, top)) continue;
    await copyMountTree(from, join(target, name), blocked, top);
  }
}

/** A subset mount: only the listed files of the source folder, at the same places in the target. */
async function copySubsetTree(mount: MountSpec, source: string, target: string, entries: readonly unknown[], blocked: readonly string[]): Promise<SubsetCopy> {
  if (!(await stat(source)).isDirectory()) {
    throw new WaveError('workspace_failed', `mount \`${mount.source}\` is a file: \`subset_from\` picks files out of a folder`, {
      hint: 'Mount the folder that holds the listed files, such as `./`.',
    });
  }
  await mkdir(target, { recursive: true });
  return copySubset(source, target, entries, blocked);
}

async function resolveSource(projectRoot: string, source: string): Promise<string> {
  const absolute = resolve(projectRoot, source);
  try {
    await stat(absolute);
    return await realpath(absolute);
  } catch (error) {
    throw new WaveError('file_not_found', `mount source \`${source}\` does not exist: looked at ${absolute}`, {
      hint: 'A mount source is resolved from the project folder (where the manifest is); fix the path or create it.',
      cause: error,
    });
  }
}

async function resolveTarget(workspace: string, mount: MountSpec, source: string): Promise<string> {
  // Wave writes targets as `/code`: a leading slash means the workspace root, not the filesystem root.
  const written = (mount.target ?? basename(source)).replace(/^\/+/, '');
  const target = written === '' ? undefined : await resolveInside(workspace, written);
  if (!target) {
    throw new WaveError('workspace_failed', `mount target \`${mount.target ?? written}\` of \`${mount.source}\` must name a folder inside the step workspace`, {
      hint: 'Name a folder inside the workspace, such as `code` or `/code`, without `..`.',
    });
  }
  if (isInside(await realpathOfNearest(target), source)) {
    throw new WaveError('workspace_failed', `mount \`${mount.source}\` lies inside its own target ${target}`, {
      hint: 'Mount a folder from the project, not one inside the step workspace.',
    });
  }
  return target;
}

/** Re-checks every readonly mount after a step: the first changed, added or removed path is an error naming the mount. */
export async function verifyReadonlyMounts(mounts: readonly ReadonlyMount[]): Promise<WaveError | undefined> {
  for (const mount of mounts) {
    const now = await fingerprintTree(mount.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const change = firstChange(mount.fingerprint, now);
    if (!change) continue;
    const what = change.path === '' ? `the mount itself (${mount.path}) was ${change.change}` : `\`${change.path}\` was ${change.change}`;
    return new WaveError('mount_modified', `readonly mount \`${mount.source}\` was changed by the step: ${what}`, {
      hint: 'Write outputs elsewhere in the workspace, or declare the mount `mode: readwrite`.',
    });
  }
  return undefined;
}
