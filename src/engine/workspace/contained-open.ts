import { constants, existsSync, type Stats } from 'node:fs';
import { lstat, open, readdir, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { WaveError } from '../../core/errors/errors.js';

/*
 * Opening a path inside a folder that someone else (an agent) may be rewriting at the same time.
 *
 * Node has no openat(), so a path is never handed to the kernel whole: each name is opened relative to a folder
 * descriptor already held, as `/proc/self/fd/<dir>/<name>` with O_NOFOLLOW. On Linux `/proc/self/fd/<dir>` is a
 * magic link that jumps to the open folder itself (not to whatever its path names now), so that open is
 * openat(dir, name, O_NOFOLLOW): a symlink swapped into the path after the folder was opened is never followed by
 * the kernel. A symlink met on the way (ELOOP) is read and followed here, one name at a time, from the folders held,
 * and `..` pops back to the folder held before; a target that leaves the root is refused. Every descriptor is thus
 * inside the root when it is opened, whatever is renamed afterwards, and the copy reads from that descriptor.
 * Without /proc (not Linux) names are opened under the folders' real paths instead: a symlink in the last name is
 * still refused by O_NOFOLLOW, but a folder swapped between two opens is not detected (best effort).
 */

const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd') ? '/proc/self/fd' : undefined;

// O_NONBLOCK: opening a FIFO left in the workspace must not hang the run; O_NOCTTY: never take a terminal.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** Symlinks followed in one lookup before it counts as a loop (the kernel's own limit). */
const MAX_SYMLINK_HOPS = 40;
/** Times a name that stopped being a symlink between open and readlink is looked up again. */
const MAX_RETRIES = 16;

/** What an opened entry is called in messages: the artifact and the path the pipeline wrote. */
export interface OpenLabel {
  artifact: string;
  path: string;
}

/** A folder held open, and where it was when it was opened (for messages and the non-Linux fallback). */
export interface HeldFolder {
  handle: FileHandle;
  path: string;
}

/** A file or folder opened inside the root; `parents` are the folders it was reached through, root first. */
export interface ContainedEntry {
  handle: FileHandle;
  stats: Stats;
  /** Its path when opened: the root's real path and the names followed. */
  path: string;
  parents: readonly HeldFolder[];
  /** Closes every descriptor this lookup opened (not those it was given). */
  release(): Promise<void>;
}

/** The path through which the kernel opens `name` inside the held folder, never by the folder's own path on Linux. */
function childPath(folder: HeldFolder, name: string): string {
  return PROC_FD ? `${PROC_FD}/${folder.handle.fd}/${name}` : join(folder.path, name);
}

/** The held folder's listing, read through its descriptor. */
export async function listFolder(folder: HeldFolder): Promise<string[]> {
  return (await readdir(PROC_FD ? `${PROC_FD}/${folder.handle.fd}` : folder.path)).sort();
}

/** A name opened without being followed: the file or folder itself, or a symlink's target text and mode. */
export type UnfollowedEntry = { handle: FileHandle; stats: Stats } | { symlink: string; mode: number };

/** Opens `name` in the held folder without following it; a symlink is read, never opened. Undefined when nothing is there. */
export async function openUnfollowed(folder: HeldFolder, name: string): Promise<UnfollowedEntry | undefined> {
  const path = childPath(folder, name);
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code !== 'ELOOP') throw error;
    const [target, stats] = await Promise.all([readlink(path), lstat(path)]);
    return { symlink: target, mode: stats.mode & 0o7777 };
  }
  try {
    return { handle, stats: await handle.stat() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Opens the root folder itself: its real path, refused if the last name became a symlink in between. */
export async function openRoot(root: string): Promise<HeldFolder> {
  const path = await realpath(root);
  return { handle: await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW), path };
}

function names(relativePath: string): string[] {
  return relativePath.split('/').filter((name) => name !== '' && name !== '.');
}

function escapeError(label: OpenLabel, inner: string, target: string): WaveError {
  const where = inner === '' ? `\`${label.path}\`` : `\`${label.path}/${inner}\``;
  return new WaveError('artifact_path_invalid', `artifact \`${label.artifact}\`: ${where} leads outside the workspace (to ${target}); nothing was copied`, {
    hint: 'An artifact must be a file or folder inside the step workspace; symlinks out of it are refused.',
  });
}

/** A symlink loop (too many hops, or a folder that contains itself). */
export function loopError(label: OpenLabel, inner: string): WaveError {
  return new WaveError('artifact_path_invalid', `artifact \`${label.artifact}\`: \`${label.path}${inner === '' ? '' : `/${inner}`}\` is a symlink loop`, {
    hint: 'Remove the symlink that points at a folder containing it.',
  });
}

/**
 * Opens `relativePath` below the held folders `base` (root first) without the kernel following any symlink:
 * symlinks inside the root are followed here name by name, one leading out throws artifact_path_invalid.
 * Resolves undefined when nothing is there (a missing name, a broken symlink, a file used as a folder).
 * `inner` names the entry in messages, relative to the artifact.
 */
export async function openBeneath(base: readonly HeldFolder[], relativePath: string, label: OpenLabel, inner: string): Promise<ContainedEntry | undefined> {
  const root = base[0]!;
  const stack = [...base];
  const opened: FileHandle[] = [];
  const release = async () => {
    await Promise.all(opened.splice(0).map((handle) => handle.close().catch(() => undefined)));
  };
  try {
    const queue = names(relativePath);
    let hops = 0;
    let retries = 0;
    while (queue.length > 0) {
      const name = queue.shift()!;
      const folder = stack.at(-1)!;
      if (name === '..') {
        if (stack.length === 1) throw escapeError(label, inner, resolve(folder.path, '..', ...queue));
        stack.pop();
        continue;
      }
      let handle: FileHandle;
      try {
        handle = await open(childPath(folder, name), OPEN_FLAGS);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return await absent(release);
        if (code !== 'ELOOP') throw error;
        // The name is a symlink: its text is followed here, from the folder that holds it.
        if (++hops > MAX_SYMLINK_HOPS) throw loopError(label, inner);
        const target = await readlink(childPath(folder, name)).catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') return null;
          if (e.code === 'EINVAL' && ++retries <= MAX_RETRIES) return undefined;
          throw e.code === 'EINVAL' ? escapeError(label, inner, `${join(folder.path, name)}, which keeps changing`) : e;
        });
        if (target === null) return await absent(release);
        if (target === undefined) {
          // Swapped back to a file or folder between the two calls: look the name up again.
          queue.unshift(name);
          continue;
        }
        if (isAbsolute(target)) {
          if (target !== root.path && !target.startsWith(root.path + sep)) throw escapeError(label, inner, target);
          stack.length = 1;
          queue.unshift(...names(target.slice(root.path.length)));
        } else {
          queue.unshift(...names(target));
        }
        continue;
      }
      opened.push(handle);
      const stats = await handle.stat();
      const path = join(folder.path, name);
      if (queue.length === 0) return { handle, stats, path, parents: stack, release };
      if (!stats.isDirectory()) return await absent(release);
      stack.push({ handle, path });
    }
    // The path ended on a folder already held (`.`, `..`, or a symlink to an ancestor).
    const held = stack.pop()!;
    return { handle: held.handle, stats: await held.handle.stat(), path: held.path, parents: stack, release };
  } catch (error) {
    await release();
    throw error;
  }
}

async function absent(release: () => Promise<void>): Promise<undefined> {
  await release();
  return undefined;
}
