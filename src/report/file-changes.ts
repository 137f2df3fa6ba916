import type { FileChange } from '../core/file-change.js';
import { safeLine } from '../core/terminal-safe.js';

/** The summary lists at most this many files of a step; `wave diff` shows them all. */
export const LISTED_FILES_LIMIT = 20;

const CHANGE_MARK: Record<FileChange['change'], string> = { added: 'A', modified: 'M', deleted: 'D' };

/** `+3 -1`, `binary`, or '' when the lines are not known. */
export function describeLineCounts(change: FileChange): string {
  if (change.binary) return 'binary';
  return change.added === undefined ? '' : `+${change.added} -${change.removed ?? 0}`;
}

/** One changed file in a line: `M src/a.ts  +3 -1` (a newline or another control character in its name shown escaped). */
export function describeFileChange(change: FileChange): string {
  const counts = describeLineCounts(change);
  return `${CHANGE_MARK[change.change]} ${safeLine(change.path)}${counts ? `  ${counts}` : ''}`;
}

/** The step's changed files, one per line, cut at LISTED_FILES_LIMIT with a line saying how many more. */
export function listFileChanges(changes: readonly FileChange[]): string[] {
  const lines = changes.slice(0, LISTED_FILES_LIMIT).map(describeFileChange);
  if (changes.length > LISTED_FILES_LIMIT) lines.push(`… ${changes.length - LISTED_FILES_LIMIT} more changed files`);
  return lines;
}
