import { isAbsolute, relative, sep } from 'node:path';

/** True when `path` is `root` or lies below it (both absolute, compared lexically). */
export function isInside(root: string, path: string, allowRoot = true): boolean {
  const rel = relative(root, path);
  if (rel === '') return allowRoot;
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
