import { closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { WaveError } from '../core/errors/errors.js';

/** The paths from just under `root` down to `file`: each folder between them, then the file. */
function pathsUnder(root: string, file: string): string[] {
  const parts = relative(root, file).split(sep);
  return parts.map((_, index) => join(root, ...parts.slice(0, index + 1)));
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Every symlink a write of `files` (under `root`, which itself is followed) would go through: a file, or a folder between `root` and it; each once. */
export function linksOnTheWay(root: string, files: readonly string[]): string[] {
  return [...new Set(files.flatMap((file) => pathsUnder(root, file)))].filter(isLink);
}

/** The error for writing through `links`: each named, and the hint that --force replaces the links themselves. */
export function linksRefused(links: readonly string[]): WaveError {
  return new WaveError(
    'file_exists',
    `${links.map((l) => `\`${l}\``).join(', ')} ${links.length === 1 ? 'is a symbolic link' : 'are symbolic links'}: writing there would write where the link points`,
    {
      location: { file: links[0]! },
      hint: 'Remove the links, or pass --force to replace each by a plain file or folder (their targets are left as they are).',
    },
  );
}

/** Removes each link itself (never what it points to), so a plain file or folder can take its place. */
export function removeLinks(links: readonly string[]): void {
  for (const link of links) if (isLink(link)) unlinkSync(link);
}

/**
 * Writes `text` to `file` under `root` as a plain file, making the missing folders between them. A symlink on the way
 * is never followed: a folder that is one is refused, and so is the file (O_NOFOLLOW, also when one appears meanwhile).
 */
export function writeNoFollow(root: string, file: string, text: string): void {
  for (const folder of pathsUnder(root, dirname(file)).filter((p) => p !== root)) {
    if (isLink(folder)) throw linksRefused([folder]);
    makeFolder(folder);
  }
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw linksRefused([file]);
    throw error;
  }
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Makes one folder (its parent exists); one already there is fine. */
function makeFolder(folder: string): void {
  try {
    mkdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** The text of `file`, undefined when there is none; a symlink is refused rather than read through. */
export function readNoFollow(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw linksRefused([file]);
    throw error;
  }
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
