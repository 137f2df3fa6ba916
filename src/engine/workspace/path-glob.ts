import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside } from '../../core/inside-path.js';
import { segmentPattern } from '../../core/glob-segment.js';

const META = /[*?[]/;

/**
 * The regular files under `root` matching `pattern` (relative, `/`-separated, no `**`), sorted. A match that is a
 * symlink leading out of `root` is left out, so a pattern never reaches past the folder it is relative to.
 */
export async function globFiles(root: string, pattern: string): Promise<string[]> {
  const realRoot = await realpath(root);
  let candidates = [realRoot];
  for (const segment of pattern.split('/').filter((s) => s !== '' && s !== '.')) {
    const next: string[] = [];
    for (const dir of candidates) {
      if (!META.test(segment)) {
        next.push(join(dir, segment));
        continue;
      }
      const entries = await readdir(dir).catch(() => [] as string[]);
      const matcher = segmentPattern(segment);
      for (const entry of entries) if (matcher.test(entry)) next.push(join(dir, entry));
    }
    candidates = next;
  }
  const files: string[] = [];
  for (const path of candidates) {
    const info = await lstat(path).catch(() => undefined);
    if (!info) continue;
    const real = await realpath(path).catch(() => undefined);
    if (!real || !isInside(realRoot, real)) continue;
    if ((await lstat(real)).isFile()) files.push(path);
  }
  return files.sort();
}
