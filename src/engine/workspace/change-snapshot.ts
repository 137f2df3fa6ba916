import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, posix } from 'node:path';
import type { FileChange } from '../../core/file-change.js';
import type { RecordingPolicy } from '../../plan/plan-types.js';
import { openBeneath, openRoot, openUnfollowed, type HeldFolder, type UnfollowedEntry } from './contained-open.js';
import { withSecretPlaceholders } from './secret-placeholders.js';
import { MIN_SECRET_LENGTH } from '../../redact.js';

/** The folder of an attempt's folder that holds the content of the files it changed. */
export const RECORDED_WORKSPACE_DIR = 'workspace';
/** The list of the attempt's changed files, in RECORDED_WORKSPACE_DIR. */
export const RECORDED_CHANGES_FILE = 'changes.json';
/** Where each created or modified file's content is kept, at its workspace path, in RECORDED_WORKSPACE_DIR. */
export const RECORDED_FILES_DIR = 'files';

/** One changed path as recorded: its content's mode, size and hash, or a symlink's target; a deleted one has no content. */
export interface RecordedChange {
  path: string;
  change: 'created' | 'modified' | 'deleted';
  mode?: number;
  size?: number;
  sha256?: string;
  secrets?: string[];
  symlink?: string;
}

/** The attempt's changes.json. */
export interface RecordedChanges {
  version: 1;
  files: RecordedChange[];
  omitted: Array<{ path: string; reason: string }>;
}

/** What to record: the workspace after the attempt, the changes measured in it, the caps and the secrets to hide. */
export interface ChangeSnapshotInput {
  workspace: string;
  attemptDir: string;
  changes: readonly FileChange[];
  policy: RecordingPolicy;
  secrets: ReadonlyArray<readonly [name: string, value: string]>;
}

const MIB = 1024 * 1024;

/**
 * Keeps the full content of each file the attempt created or modified (secrets replaced by placeholders) and the list
 * of its changes in `<attemptDir>/workspace/`. Files are opened inside the workspace without following a symlink: an
 * agent's symlink is recorded as its target text. Resolves whether a file had to be left out (a cap, not a regular file).
 */
export async function recordChangedFiles(input: ChangeSnapshotInput): Promise<{ incomplete: boolean }> {
  const into = join(input.attemptDir, RECORDED_WORKSPACE_DIR);
  const record: RecordedChanges = { version: 1, files: [], omitted: [] };
  let budget = input.policy.maxAttemptBytes;
  const root = await openRoot(input.workspace);
  try {
    for (const change of input.changes) {
      const kind = change.change === 'added' ? 'created' : change.change;
      if (kind === 'deleted') {
        record.files.push({ path: change.path, change: kind });
        continue;
      }
      const entry = await openChanged(root, change.path).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      const kept = await keepEntry(entry, { ...input, into, budget, path: change.path, change: kind });
      if ('reason' in kept) record.omitted.push({ path: change.path, reason: kept.reason });
      else {
        record.files.push(kept);
        budget -= kept.size ?? 0;
      }
    }
  } finally {
    await root.handle.close();
  }
  await mkdir(into, { recursive: true });
  await writeFile(join(into, RECORDED_CHANGES_FILE), `${JSON.stringify(record, null, 2)}\n`);
  return { incomplete: record.omitted.length > 0 };
}

/** Opens a changed path's folder inside the workspace, then the path itself without following it. */
async function openChanged(root: HeldFolder, path: string): Promise<UnfollowedEntry | undefined> {
  const folder = posix.dirname(path);
  if (folder === '.') return openUnfollowed(root, basename(path));
  const parent = await openBeneath([root], folder, { artifact: 'recording', path: folder }, '');
  if (!parent) return undefined;
  try {
    return parent.stats.isDirectory() ? await openUnfollowed({ handle: parent.handle, path: parent.path }, basename(path)) : undefined;
  } finally {
    await parent.release();
  }
}

interface KeepInput extends ChangeSnapshotInput {
  into: string;
  budget: number;
  path: string;
  change: 'created' | 'modified';
}

/** The recorded entry of one opened path, its content written under `files/`; or why it is left out. */
async function keepEntry(entry: UnfollowedEntry | string | undefined, input: KeepInput): Promise<RecordedChange | { reason: string }> {
  const { path, change, policy } = input;
  if (entry === undefined) return { reason: 'it was gone when the attempt ended' };
  if (typeof entry === 'string') return { reason: `it could not be opened inside the workspace: ${entry}` };
  if ('symlink' in entry) return { path, change, mode: entry.mode, symlink: entry.symlink };
  try {
    const { stats, handle } = entry;
    if (!stats.isFile()) return { reason: 'not a regular file' };
    if (stats.size > policy.maxFileBytes) return { reason: `${stats.size} bytes, past runtime.recording.max_file_mb (${policy.maxFileBytes / MIB} MiB)` };
    if (stats.size > input.budget) return { reason: `past runtime.recording.max_attempt_mb (${policy.maxAttemptBytes / MIB} MiB) for the attempt's files` };
    const raw = await handle.readFile();
    // It may have grown since it was measured.
    if (raw.length > Math.min(policy.maxFileBytes, input.budget)) return { reason: `${raw.length} bytes when read, past runtime.recording's caps` };
    const encoded = encodedSecretIn(raw, input.secrets);
    if (encoded) return { reason: `it holds the URL-encoded value of ${encoded}, which no placeholder stands for` };
    const { content, names } = withSecretPlaceholders(raw, input.secrets);
    const target = join(input.into, RECORDED_FILES_DIR, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    const sha256 = createHash('sha256').update(content).digest('hex');
    return { path, change, mode: stats.mode & 0o7777, size: content.length, sha256, secrets: names };
  } finally {
    await entry.handle.close();
  }
}

/** The name of a secret whose URL-encoded form (as the redactor also hides it) is in the content, if any. */
function encodedSecretIn(content: Buffer, secrets: KeepInput['secrets']): string | undefined {
  for (const [name, value] of secrets) {
    let encoded: string;
    try {
      encoded = encodeURIComponent(value);
    } catch {
      // A lone surrogate cannot be encoded, so it cannot appear encoded either.
      continue;
    }
    if (encoded !== value && value.length >= MIN_SECRET_LENGTH && content.includes(encoded)) return name;
  }
  return undefined;
}
