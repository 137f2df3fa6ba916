import type { z } from 'zod';

/** The parts of a zod 4 schema definition this walker reads. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  getter?: () => z.ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under wrappers (optional, default, nullable, …); unions and lazies are expanded. */
function unwrap(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  if (def.innerType) return unwrap(def.innerType);
  if (def.type === 'pipe' && def.in) return unwrap(def.in);
  if (def.type === 'lazy' && def.getter) return unwrap(def.getter());
  if (def.type === 'union' && def.options) return def.options.flatMap(unwrap);
  return [schema];
}

/** Every schema that may describe the value at `path` (several when a union is on the way). */
export function schemasAt(root: z.ZodType, path: readonly PropertyKey[]): z.ZodType[] {
  let level = unwrap(root);
  for (const segment of path) {
    const next: z.ZodType[] = [];
    for (const schema of level) {
      const def = defOf(schema);
      if (def.type === 'object' && typeof segment === 'string' && def.shape?.[segment]) next.push(def.shape[segment]);
      else if (def.type === 'array' && typeof segment === 'number' && def.element) next.push(def.element);
      else if (def.type === 'record' && typeof segment === 'string' && def.valueType) next.push(def.valueType);
    }
    level = next.flatMap(unwrap);
  }
  return level;
}

/** The keys a mapping at `path` may hold, in declaration order. */
export function keysAllowedAt(root: z.ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  for (const schema of schemasAt(root, path)) {
    const def = defOf(schema);
    if (def.type === 'object' && def.shape) for (const key of Object.keys(def.shape)) keys.add(key);
  }
  return [...keys];
}

/** The literal or enum values allowed at `path`, when it is one of those. */
export function valuesAllowedAt(root: z.ZodType, path: readonly PropertyKey[]): string[] {
  const values: string[] = [];
  for (const schema of schemasAt(root, path)) {
    const def = defOf(schema);
    if (def.type === 'literal' && def.values) values.push(...def.values.map(String));
    if (def.type === 'enum' && def.entries) values.push(...Object.values(def.entries).map(String));
  }
  return values;
}

/** The `.describe()` text of the field at `path`, looked up through its wrappers. */
export function descriptionAt(root: z.ZodType, path: readonly PropertyKey[]): string | undefined {
  if (path.length === 0) return (root as { description?: string }).description;
  for (const parent of schemasAt(root, path.slice(0, -1))) {
    const def = defOf(parent);
    const segment = path[path.length - 1];
    let field: z.ZodType | undefined = def.type === 'object' && typeof segment === 'string' ? def.shape?.[segment] : def.type === 'array' ? def.element : def.valueType;
    while (field) {
      const description = (field as { description?: string }).description;
      if (description) return description;
      field = defOf(field).innerType;
    }
  }
  return undefined;
}
