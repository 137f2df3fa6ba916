import { closeSync, openSync, readSync } from 'node:fs';

/** One buffer for every read: the reads are synchronous, so none overlaps another. */
const chunk = Buffer.allocUnsafe(4096);

/**
 * The text (latin1) of a /proc file, read synchronously with one descriptor and no stat: a /proc file says its size is
 * 0, so readFileSync stats it and grows a buffer, which costs about three times as much for the tiny files the stray
 * sweep reads after every attempt. Throws what open or read throws.
 */
export function readProcFile(path: string): string {
  const fd = openSync(path, 'r');
  try {
    let text = '';
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) return text;
      text += chunk.toString('latin1', 0, read);
    }
  } finally {
    closeSync(fd);
  }
}
