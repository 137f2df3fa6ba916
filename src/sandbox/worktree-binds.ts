import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Bind } from './host-paths.js';

/**
 * What a git worktree workspace needs from its repository so git works inside: the repository's .git read-only
 * (its hooks and config must not become code the host runs later), and read-write only the parts a commit on
 * the worktree's branch writes: the worktree's own folder, objects, refs and their logs.
 */
export function worktreeBinds(workspace: string): Bind[] {
  let gitdir: string;
  try {
    const pointer = /^gitdir: (.+)$/m.exec(readFileSync(join(workspace, '.git'), 'utf8'))?.[1]?.trim();
    if (!pointer) return [];
    gitdir = resolve(workspace, pointer);
  } catch {
    return []; // Not a worktree: a plain folder, or a repository of its own inside the workspace.
  }
  let common: string;
  try {
    common = resolve(gitdir, readFileSync(join(gitdir, 'commondir'), 'utf8').trim());
  } catch {
    return [];
  }
  return [{ path: common, writable: false }, ...[gitdir, join(common, 'objects'), join(common, 'refs'), join(common, 'logs')].map((path) => ({ path, writable: true }))];
}
