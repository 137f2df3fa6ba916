/*
 * Wave's dot-notation JSON paths (internal/pipeline/outcomes.go, ExtractJSONPath and ExtractJSONPathAll), which
 * outcomes' `json_path` and pipeline outputs' `field` use: `.pr_url`, `.comment.url`, `.items[0].url`, and one
 * `[*]` for every item of a list (`.created_issues[*].url`). `[]` is read as `[*]`: Wave's own pipelines write it so,
 * and there it can only fail ("invalid array index").
 */

/** One name of a path, then optionally one item of the list it holds, or each of them. */
export interface JsonPathSegment {
  key: string;
  index?: number | 'each';
}

/** A path that cannot be read, or a value it does not lead to; `emptyList` names a list that had no item 0. */
export class JsonPathError extends Error {
  constructor(
    message: string,
    readonly emptyList?: string,
  ) {
    super(message);
  }
}

const SEGMENT = /^([^.[\]\s]+)(?:\[(\d+|\*|)\])?$/;

/** The segments of a path (the leading dot optional); throws a JsonPathError saying what is wrong with it. */
export function parseJsonPath(path: string): JsonPathSegment[] {
  const body = path.startsWith('.') ? path.slice(1) : path;
  if (body === '') throw new JsonPathError(path === '' ? 'the path is empty' : 'the path is only a dot');
  const segments = body.split('.').map((part): JsonPathSegment => {
    const match = SEGMENT.exec(part);
    if (!match) throw new JsonPathError(`\`${part}\` is not a key, key[N] or key[*]`);
    const [, key, index] = match;
    if (index === undefined) return { key: key! };
    return { key: key!, index: index === '*' || index === '' ? 'each' : Number(index) };
  });
  if (segments.filter((s) => s.index === 'each').length > 1) throw new JsonPathError('a path takes one [*] at most');
  return segments;
}

/** Whether the path takes every item of a list (`[*]`). */
export function takesEachItem(segments: readonly JsonPathSegment[]): boolean {
  return segments.some((s) => s.index === 'each');
}

/**
 * The values a path leads to in parsed JSON, as text (Wave's rendering: a string as it is, numbers and booleans
 * written out, an object or list as JSON): one value, or one per item for a `[*]` path (none for an empty list).
 */
export function jsonPathValues(value: unknown, segments: readonly JsonPathSegment[]): string[] {
  const at = segments.findIndex((s) => s.index === 'each');
  if (at < 0) return [asText(walk(value, segments))];
  const list = walk(value, [...segments.slice(0, at), { key: segments[at]!.key }]);
  if (!Array.isArray(list)) throw new JsonPathError(`the value at "${segments[at]!.key}" is not a list`);
  const rest = segments.slice(at + 1);
  return list.map((item: unknown, i) => {
    if (rest.length === 0) {
      // As in Wave: an item taken whole must be text.
      if (typeof item !== 'string') throw new JsonPathError(`item [${i}] is not text`);
      return item;
    }
    try {
      return asText(walk(item, rest));
    } catch (error) {
      throw new JsonPathError(`item [${i}]: ${(error as Error).message}`);
    }
  });
}

function walk(value: unknown, segments: readonly JsonPathSegment[]): unknown {
  let current = value;
  for (const { key, index } of segments) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) throw new JsonPathError(`cannot look up "${key}" in a value that is not an object`);
    if (!Object.hasOwn(current, key)) throw new JsonPathError(`key "${key}" not found`);
    current = (current as Record<string, unknown>)[key];
    if (typeof index !== 'number') continue;
    if (!Array.isArray(current)) throw new JsonPathError(`the value at "${key}" is not a list`);
    if (index >= current.length) {
      if (current.length === 0) throw new JsonPathError(`no items in ${key}`, key);
      throw new JsonPathError(`index ${index} is past the end of "${key}" (${current.length} items)`);
    }
    current = current[index];
  }
  return current;
}

function asText(value: unknown): string {
  if (value === null || value === undefined) throw new JsonPathError('the value at the path is null');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
