import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside } from '../../core/inside-path.js';

const META = /[*?[]/;

/** One path segment of a glob as a regular expression: `*`, `?` and `[…]` (`[!…]` negates) as Go's filepath.Match reads them. */
export function segmentPattern(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '\\' && i + 1 < segment.length) source += escape(segment[++i]!);
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) {
        source += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      source += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else source += escape(c);
  }
  return new RegExp(`^${source}$`);
}

function escape(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

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
