import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { MountSpec } from './mounts.js';
import { resolveInside } from './workspace-paths.js';

/** A mount source naming the project folder itself, as Wave's scripts write it. */
const PROJECT_SOURCES = new Set(['./', '.']);

/**
 * Where a command step runs and its relative paths resolve (Wave's resolveCommandWorkDir): the copy of the project
 * when the step mounts `./`, else the workspace (a worktree step's workspace is its worktree).
 */
export async function commandWorkdir(workspace: string, projectRoot: string, mounts: readonly MountSpec[]): Promise<string> {
  for (const mount of mounts) {
    if (!PROJECT_SOURCES.has(mount.source)) continue;
    const target = (mount.target ?? basename(resolve(projectRoot))).replace(/^\/+/, '');
    if (target === '') continue;
    const path = await resolveInside(workspace, target);
    if (path && (await stat(path).catch(() => undefined))?.isDirectory()) return path;
  }
  return workspace;
}
