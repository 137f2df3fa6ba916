import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { keysAllowedAt, schemasAt } from '../../src/config/schema/schema-walk.js';

/** A leaf of a schema: a key whose value holds no further keys (a scalar, a list or map of scalars). */
export interface SchemaLeaf {
  /** The key's name, as configuration files spell it. */
  key: string;
  /** Where it sits, e.g. `steps[].memory.inject_artifacts[].type`, `adapters.*.mode`. */
  path: string;
}

/** Every leaf key of a zod schema, walking objects, records (`*`), arrays (`[]`), unions and optionals. */
export function schemaLeaves(root: z.ZodType): SchemaLeaf[] {
  const leaves = new Map<string, SchemaLeaf>();
  const hasKeys = (path: PropertyKey[]): boolean =>
    keysAllowedAt(root, path).length > 0 ||
    (schemasAt(root, [...path, '*']).length > 0 && hasKeys([...path, '*'])) ||
    (schemasAt(root, [...path, 0]).length > 0 && hasKeys([...path, 0]));
  const visit = (path: PropertyKey[]): void => {
    for (const key of keysAllowedAt(root, path)) {
      const child = [...path, key];
      if (hasKeys(child)) visit(child);
      else leaves.set(displayPath(child), { key, path: displayPath(child) });
    }
    if (schemasAt(root, [...path, '*']).length > 0) visit([...path, '*']);
    if (schemasAt(root, [...path, 0]).length > 0) visit([...path, 0]);
  };
  visit([]);
  return [...leaves.values()];
}

/** `['steps', 0, 'id']` as `steps[].id`. */
function displayPath(path: readonly PropertyKey[]): string {
  return path.map((segment, i) => (typeof segment === 'number' ? '[]' : `${i ? '.' : ''}${String(segment)}`)).join('');
}

/**
 * Whether `source` reads the key `key`: a property access (`.key`, `?.key`, `['key']`), a destructuring
 * (`{ key } =`, `{ key: name } =`) or a lookup by name (`'key' in x`, `Object.hasOwn(x, 'key')`).
 * By name only: a key shared by several objects counts as read when any of them reads it.
 */
export function readsKey(source: string, key: string): boolean {
  const k = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    new RegExp(`\\.${k}\\b(?!\\s*\\()`),
    new RegExp(`\\[\\s*(['"\`])${k}\\1\\s*\\]`),
    new RegExp(`\\{[^{}]*\\b${k}\\b[^{}]*\\}\\s*=[^=>]`),
    new RegExp(`(['"])${k}\\1\\s+in\\s`),
    new RegExp(`hasOwn\\([^)]*,\\s*(['"])${k}\\1`),
  ].some((pattern) => pattern.test(source));
}

/** The leaves of `root` that no source reads and that are not listed as documentation only. */
export function unreadLeaves(root: z.ZodType, sources: readonly string[], documentationOnly: ReadonlySet<string>): string[] {
  return schemaLeaves(root)
    .filter((leaf) => !documentationOnly.has(leaf.path) && !sources.some((source) => readsKey(source, leaf.key)))
    .map((leaf) => leaf.path);
}

/**
 * The TypeScript sources under `dir` that may read configuration: the schemas define keys and
 * unsupported-features.ts refuses them, so neither counts as a reader.
 */
export function readerSources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('-schema.ts') && !file.endsWith('unsupported-features.ts'))
    .map((file) => readFileSync(join(dir, file), 'utf8'));
}
