import type { Stats } from 'node:fs';
import type { ReadEntry } from 'tar';
import { CASSETTE_FILE, CASSETTE_RUNS_DIR } from '../../state/cassette-schema.js';

/** The most a cassette may unpack to: a recording past this is refused before it fills the disk. */
export const MAX_UNPACKED_BYTES = 1024 ** 3;

/** A tar header's size: what each entry costs besides its content. */
const TAR_BLOCK_BYTES = 512;

const PLAIN_FILE_TYPES: ReadonlySet<string> = new Set(['File', 'OldFile', 'ContiguousFile']);

/** How a refused entry type is named in the error. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  SymbolicLink: 'a symlink',
  Link: 'a hard link',
  CharacterDevice: 'a character device',
  BlockDevice: 'a block device',
  FIFO: 'a named pipe',
};

/**
 * Judges a cassette's tar entries as they are read: only plain files and folders, at `cassette.json` or under `runs/`,
 * by relative paths that never climb out, adding up to at most `maxBytes`. The first problem is kept; from then on
 * nothing more is unpacked.
 */
export class CassetteEntries {
  private bytes = 0;
  /** Why the cassette is refused, once an entry was. */
  problem?: string;

  constructor(private readonly maxBytes: number = MAX_UNPACKED_BYTES) {}

  /** Whether to unpack `entry` (tar's filter): false for every entry once one was refused. */
  readonly accept = (path: string, stat: Stats | ReadEntry): boolean => {
    const entry = stat as ReadEntry;
    if (this.problem !== undefined) return false;
    this.problem = this.problemOf(path, entry);
    if (this.problem !== undefined) return false;
    // Whatever modes the archive says, the unpacked copy stays readable and removable by its owner, and never setuid.
    entry.mode = ((entry.mode ?? 0) & 0o755) | (entry.type === 'Directory' ? 0o700 : 0o600);
    return true;
  };

  private problemOf(path: string, entry: ReadEntry): string | undefined {
    const isFolder = entry.type === 'Directory';
    if (!isFolder && !PLAIN_FILE_TYPES.has(entry.type)) {
      return `its entry \`${path}\` is ${TYPE_WORDS[entry.type] ?? `of type ${entry.type}`}; a cassette holds only plain files and folders`;
    }
    const parts = path.replace(/\/+$/, '').split('/');
    // `tar -C folder .` writes every entry under `./`: the same place.
    while (parts.length > 1 && parts[0] === '.') parts.shift();
    if (path.startsWith('/') || path.includes('\\') || parts.some((part, i) => part === '..' || part === '' || (part === '.' && (i > 0 || !isFolder)))) {
      return `its entry \`${path}\` is not a plain relative path inside the cassette (absolute, \`..\` or empty parts)`;
    }
    if (parts[0] === '.') return undefined;
    const placed = isFolder ? parts[0] === CASSETTE_RUNS_DIR : parts.length === 1 ? parts[0] === CASSETTE_FILE : parts[0] === CASSETTE_RUNS_DIR;
    if (!placed) return `its entry \`${path}\` is neither ${CASSETTE_FILE} nor under ${CASSETTE_RUNS_DIR}/`;
    // A header block each, so a cassette of countless empty files reaches the cap too.
    this.bytes += entry.size + TAR_BLOCK_BYTES;
    if (this.bytes > this.maxBytes) return `it unpacks to more than ${formatBytes(this.maxBytes)}`;
    return undefined;
  }
}

function formatBytes(bytes: number): string {
  return bytes % 1024 ** 3 === 0 ? `${bytes / 1024 ** 3} GiB` : `${bytes} bytes`;
}
