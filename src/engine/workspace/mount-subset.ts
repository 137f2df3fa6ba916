import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { parseSubsetFrom, type SubsetFrom } from '../../config/checks/subset-from.js';
import { isRecord } from '../../config/load/value-path.js';
import { WaveError } from '../../core/errors/errors.js';
import { copyOpened, openContained } from '../artifacts/artifact-copy.js';
import { isInside } from '../../core/inside-path.js';

/** Larger list artifacts are refused: a list of paths this size is no hand-picked subset. */
const MAX_LIST_BYTES = 16 * 1024 * 1024;
/** Skipped entries kept for the event; the rest are only counted. */
export const MAX_SKIPPED_LISTED = 50;

/** The files a `subset_from` artifact lists, or why the mount falls back to its whole source (Wave's soft fallback). */
export type SubsetList = { files: unknown[] } | { fallback: string };

/** One listed entry that was not copied, and why. */
export interface SkippedEntry {
  path: string;
  reason: string;
}

/** What copying a subset did. */
export interface SubsetCopy {
  copied: number;
  skipped: SkippedEntry[];
}

/**
 * Reads the list a mount's `subset_from` names: the artifact `<step>.<artifact>` saved by this run (`locate`),
 * parsed as JSON, followed along the path to a list. An artifact that is not there (a parent pipeline's in Wave,
 * or one its step did not save) means the whole source, as in Wave; an artifact that is there but holds no such
 * list fails the step.
 */
export async function readSubsetList(subsetFrom: string, locate: (step: string, artifact: string) => string | undefined): Promise<SubsetList> {
  const subset = parseSubsetFrom(subsetFrom);
  if (!subset) throw listError(subsetFrom, 'is not `<step>.<artifact>.<json-path>`');
  const file = locate(subset.step, subset.artifact);
  const size =
    file === undefined
      ? undefined
      : await stat(file).then(
          (s) => s.size,
          () => undefined,
        );
  if (file === undefined || size === undefined) {
    return { fallback: `artifact \`${subset.artifact}\` of step \`${subset.step}\` is not in this run, so the whole source is mounted` };
  }
  if (size > MAX_LIST_BYTES) throw listError(subsetFrom, `names an artifact of ${size} bytes (at most ${MAX_LIST_BYTES})`);
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw listError(subsetFrom, `names an artifact that is not JSON (${(error as Error).message})`);
  }
  const list = follow(value, subset, subsetFrom);
  if (!Array.isArray(list)) throw listError(subsetFrom, `leads to ${describe(list)}, not a list of paths`);
  return { files: list };
}

function follow(value: unknown, subset: SubsetFrom, text: string): unknown {
  let current = value;
  for (const { key, index } of subset.path) {
    if (!isRecord(current) || !Object.hasOwn(current, key)) throw listError(text, `finds no key \`${key}\` in its artifact`);
    current = current[key];
    if (index === undefined) continue;
    if (!Array.isArray(current) || index >= current.length) throw listError(text, `finds no item [${index}] at \`${key}\``);
    current = current[index] as unknown;
  }
  return current;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

function listError(subsetFrom: string, problem: string): WaveError {
  return new WaveError('workspace_failed', `\`subset_from: ${subsetFrom}\` ${problem}`, {
    hint: 'The artifact must be JSON whose path leads to a list of file paths relative to the mount source, such as {"changed_files": ["src/a.ts"]}.',
  });
}

/** Why a listed entry may not be copied, judged on its text alone; undefined when it is a plain relative path. */
function textProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'string' || entry === '') return 'not a path';
  if (entry.includes('\0')) return 'holds a NUL character';
  if (isAbsolute(entry)) return 'an absolute path';
  const names = entry.split('/');
  if (names.includes('..')) return 'climbs out with `..`';
  // Wave's state folder is never part of a mount (mounts.ts), whatever a list says.
  if (names.includes('.wave')) return "inside Wave's state folder .wave";
  if (names.every((name) => name === '' || name === '.')) return 'names the source itself, not a file';
  return undefined;
}

/**
 * Copies the listed files from `source` (a real path) to the same places under `target`. Every entry is untrusted
 * run-time data: it must be a relative path without `..`, reach a regular file with no symlink anywhere on the way
 * (opened without the kernel following one, so a link swapped in meanwhile is no way out either), and not lie in
 * `blocked` (the workspace root). Entries that fail are skipped and reported, as Wave skips them.
 */
export async function copySubset(source: string, target: string, entries: readonly unknown[], blocked: readonly string[]): Promise<SubsetCopy> {
  const result: SubsetCopy = { copied: 0, skipped: [] };
  const done = new Set<string>();
  for (const entry of entries) {
    const path = typeof entry === 'string' ? entry : JSON.stringify(entry);
    const problem = textProblem(entry) ?? (await copyOne(source, target, entry as string, blocked, done));
    if (problem) result.skipped.push({ path, reason: problem });
  }
  // A file listed twice is copied once.
  result.copied = done.size;
  return result;
}

/** Copies one listed file; returns why it was not copied. */
async function copyOne(source: string, target: string, entry: string, blocked: readonly string[], done: Set<string>): Promise<string | undefined> {
  const names = entry.split('/').filter((name) => name !== '' && name !== '.');
  const relative = names.join('/');
  if (done.has(relative)) return undefined;
  const lexical = join(source, ...names);
  if (blocked.some((folder) => isInside(folder, lexical))) return 'inside the workspace root';
  let opened;
  try {
    opened = await openContained(source, relative, { artifact: 'subset_from', path: entry });
  } catch (error) {
    if (error instanceof WaveError && error.code === 'artifact_path_invalid') return 'a symlink leading out of the mount source';
    throw error;
  }
  if (!opened) return 'not found in the mount source';
  try {
    // A symlink followed inside the source shows as a path other than the one listed: refused, as Wave refuses symlinks.
    if (opened.entry.path !== lexical) return 'a symlink';
    if (!opened.entry.stats.isFile()) return opened.entry.stats.isDirectory() ? 'a folder, not a file' : 'not a regular file';
    await copyOpened(opened, join(target, ...names));
    done.add(relative);
    return undefined;
  } finally {
    await opened.close();
  }
}
