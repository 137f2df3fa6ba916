/** A path into a parsed value: mapping keys and list indexes. */
export type Path = Array<string | number>;

/** A plain mapping (not a list, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path`, or undefined when any step of it is missing. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const segment of path) {
    if (Array.isArray(value) && typeof segment === 'number') value = value[segment];
    else if (isRecord(value) && typeof segment === 'string' && Object.hasOwn(value, segment)) value = value[segment];
    else return undefined;
  }
  return value;
}

/** `steps[0].exec.type`, or `the top level` for the empty path. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the top level';
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return `\`${text}\``;
}

/** True when `path` equals `prefix` or lies under it. */
export function startsWith(path: readonly PropertyKey[], prefix: readonly PropertyKey[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => String(segment) === String(path[i]));
}
