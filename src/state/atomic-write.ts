import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/** Writes a file so a reader (or a kill -9) sees the old content or the new, never a torn mix. */
// No fsync: rename alone is atomic against a killed process, and run.json is rewritten often.
export function writeFileAtomicSync(file: string, content: string): void {
  // Same folder as the target, so the rename never crosses file systems.
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${++counter}.tmp`);
  const fd = openSync(temp, 'w', 0o644);
  try {
    try {
      const bytes = Buffer.from(content);
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    // A full or read-only disk: the target keeps its last good content and no temp file is left behind.
    try {
      rmSync(temp, { force: true });
    } catch {
      // Nothing more can be done on this disk.
    }
    throw error;
  }
}
