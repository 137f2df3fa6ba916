import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { schemaFileName, type SchemaName } from '../../src/schemas.js';

const SCHEMAS = fileURLToPath(new URL('../../schemas/', import.meta.url));

/** The formats people write by hand, whose keys an editor explains on hover and in completion. */
const EDITED_FORMATS: readonly SchemaName[] = ['manifest', 'pipeline'];

/** The JSON path of every property, at any depth, whose schema has no description. */
function undescribedProperties(node: unknown, path: string): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => undescribedProperties(item, `${path}[${index}]`));
  if (node === null || typeof node !== 'object') return [];
  const found: string[] = [];
  for (const [key, child] of Object.entries(node)) {
    if (key !== 'properties' || child === null || typeof child !== 'object') {
      found.push(...undescribedProperties(child, `${path}/${key}`));
      continue;
    }
    for (const [name, property] of Object.entries(child)) {
      const description = (property as { description?: unknown } | null)?.description;
      if (typeof description !== 'string' || description.trim() === '') found.push(`${path}.${name}`);
      found.push(...undescribedProperties(property, `${path}.${name}`));
    }
  }
  return found;
}

describe('the published schemas describe every key', () => {
  it.each(EDITED_FORMATS)('%s.schema.json has a description on every property (add .describe() under src/config/schema/, then `npm run schemas`)', (name) => {
    const schema = JSON.parse(readFileSync(join(SCHEMAS, schemaFileName(name)), 'utf8')) as unknown;
    expect(undescribedProperties(schema, '')).toEqual([]);
  });

  it('finds a property without one at any depth', () => {
    const schema = { properties: { a: { description: 'A.', properties: { b: { type: 'string' } } }, list: { description: 'L.', items: { properties: { c: {} } } } } };
    expect(undescribedProperties(schema, '')).toEqual(['.a.b', '.list/items.c']);
  });
});
