import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { WaveError } from '../../core/errors/errors.js';
import { createRedactingStream, type Redactor } from '../../redact.js';
import { capLabel } from '../../stream/stored-output-cap.js';
import { listFolder, loopError, openBeneath, openRoot, type ContainedEntry, type HeldFolder, type OpenLabel } from '../workspace/contained-open.js';
import { removeTree } from '../workspace/workspace-files.js';

/** What a copy is called in messages: the artifact and where it was taken from. */
export type CopyLabel = OpenLabel;

/** A file or folder opened inside its root (see contained-open.ts), ready to be copied from its descriptor. */
export interface OpenedSource {
  entry: ContainedEntry;
  label: CopyLabel;
  /** Closes the entry and the root. */
  close(): Promise<void>;
}

/** What one copy wrote. */
export interface CopyResult {
  /** Bytes written to the copy (after redaction). */
  bytes: number;
  /** Secrets replaced by [REDACTED] in the copy. */
  redactions: number;
}

export interface CopyOptions {
  /** Replaces the run's secrets in the copy; the source is left as it is. */
  redactor?: Redactor;
  /** Refuses the copy once it would write more than this (the rest of the attempt's artifacts counted in `spent`). */
  maxBytes?: number;
  /** Bytes the attempt's earlier copies wrote, counted against maxBytes. */
  spent?: number;
}

const MIB = 1024 * 1024;
/** The most all of an attempt's artifacts may hold together, as stored in the run folder. */
export const ARTIFACT_CAP_BYTES = 1024 * MIB;

/**
 * Opens `relativePath` inside `root` without the kernel following a symlink anywhere on the way (symlinks inside the
 * root are followed by hand). Resolves undefined when nothing is there; throws artifact_path_invalid for a path out.
 */
export async function openContained(root: string, relativePath: string, label: CopyLabel): Promise<OpenedSource | undefined> {
  const rootFolder = await openRoot(root);
  const closeRoot = () => rootFolder.handle.close().catch(() => undefined);
  let entry: ContainedEntry | undefined;
  try {
    entry = await openBeneath([rootFolder], relativePath, label, '');
  } catch (error) {
    await closeRoot();
    throw error;
  }
  if (!entry) {
    await closeRoot();
    return undefined;
  }
  const opened = entry;
  return {
    entry: opened,
    label,
    close: async () => {
      await opened.release();
      await closeRoot();
    },
  };
}

/**
 * Copies an opened file or folder to `dest` (replacing it), reading only through descriptors opened inside the root.
 * A symlink leading out, anywhere in a folder, refuses the whole copy; nothing lands at `dest` unless everything
 * was copied (the copy is made beside it and renamed).
 */
export async function copyOpened(source: OpenedSource, dest: string, options: CopyOptions = {}): Promise<CopyResult> {
  const result: CopyResult = { bytes: 0, redactions: 0 };
  const cap = { maxBytes: options.maxBytes ?? ARTIFACT_CAP_BYTES, spent: options.spent ?? 0 };
  await replaceAtomically(dest, (partial) => copyEntry(source.entry, partial, '', { label: source.label, redactor: options.redactor, ancestors: new Set(), result, cap }));
  return result;
}

/** Writes `text` as the file `dest`, replacing whatever is there (a symlink included, never followed). */
export async function writeArtifactText(dest: string, text: string): Promise<void> {
  await replaceAtomically(dest, (partial) => writeFile(partial, text, { flag: 'wx' }));
}

/** Makes `dest` by writing a fresh partial file beside it, then renaming it into place; the partial is removed on failure. */
async function replaceAtomically(dest: string, write: (partial: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(dest), { recursive: true });
  const partial = join(dirname(dest), `.${basename(dest)}.partial-${randomBytes(4).toString('hex')}`);
  try {
    await write(partial);
    await removeTree(dest);
    await rename(partial, dest);
  } catch (error) {
    await removeTree(partial);
    throw error;
  }
}

/** Copies the file or folder `source`, which must lie inside `root`, to `dest`; returns the bytes copied. */
export async function copyContained(source: string, dest: string, root: string, label: CopyLabel): Promise<number> {
  const opened = await openContained(root, relative(root, source), label);
  if (!opened) throw new WaveError('artifact_missing', `artifact \`${label.artifact}\`: nothing at ${source}`);
  try {
    return (await copyOpened(opened, dest)).bytes;
  } finally {
    await opened.close();
  }
}

interface CopyWalk {
  label: CopyLabel;
  redactor?: Redactor;
  /** Folders being copied, as dev:inode: meeting one again is a symlink loop. */
  ancestors: ReadonlySet<string>;
  result: CopyResult;
  cap: { maxBytes: number; spent: number };
}

/** A pass-through that refuses the copy once the attempt's artifacts pass the cap, naming it. */
function capCopy(walk: CopyWalk): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (walk.cap.spent + walk.result.bytes + bytes <= walk.cap.maxBytes) return callback(null, chunk);
      const cap = capLabel(walk.cap.maxBytes);
      callback(
        new WaveError(
          'limit_exceeded',
          `artifact \`${walk.label.artifact}\`: the attempt's artifacts are larger than ${cap}, the most Wave stores per attempt; nothing of it was stored`,
          {
            hint: 'Declare smaller artifacts (a summary, a diff), or keep large outputs in the workspace or a worktree branch.',
          },
        ),
      );
    },
  });
}

async function copyEntry(entry: ContainedEntry, dest: string, inner: string, walk: CopyWalk): Promise<void> {
  if (entry.stats.isFile()) {
    await copyFileFrom(entry, dest, walk);
    return;
  }
  // Sockets, FIFOs and devices hold nothing to copy.
  if (!entry.stats.isDirectory()) return;
  const identity = `${entry.stats.dev}:${entry.stats.ino}`;
  if (walk.ancestors.has(identity)) throw loopError(walk.label, inner);
  await mkdir(dest);
  const folder: HeldFolder = { handle: entry.handle, path: entry.path };
  const within = { ...walk, ancestors: new Set([...walk.ancestors, identity]) };
  for (const name of await listFolder(folder)) {
    const childInner = inner === '' ? name : `${inner}/${name}`;
    const child = await openBeneath([...entry.parents, folder], name, walk.label, childInner);
    // Gone since the listing, or a broken symlink inside the root: nothing to copy.
    if (!child) continue;
    try {
      await copyEntry(child, join(dest, name), childInner, within);
    } finally {
      await child.release();
    }
  }
}

/** Streams the opened file to `dest`, redacting the run's secrets when asked; never reopens the source by path. */
async function copyFileFrom(entry: ContainedEntry, dest: string, walk: CopyWalk): Promise<void> {
  const read = entry.handle.createReadStream({ start: 0, autoClose: false });
  const write = createWriteStream(dest, { flags: 'wx' });
  const redacting: Transform | undefined = walk.redactor ? createRedactingStream(walk.redactor, { onRedacted: (count) => (walk.result.redactions += count) }) : undefined;
  await (redacting ? pipeline(read, redacting, capCopy(walk), write) : pipeline(read, capCopy(walk), write));
  walk.result.bytes += write.bytesWritten;
}
