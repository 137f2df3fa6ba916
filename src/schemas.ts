import { z } from 'zod';
import { ManifestSchema } from './config/schema/manifest-schema.js';
import { PipelineSchema } from './config/schema/pipeline-schema.js';
import { eventSchemas } from './event-schema.js';
import { CassetteSchema } from './state/cassette-schema.js';

/** Every format Wave publishes as a JSON Schema, by the name `wave schema <name>` takes. */
export const JSON_SCHEMAS = {
  manifest: () => ManifestSchema,
  pipeline: () => PipelineSchema,
  // Built only when asked for: the event schemas are the largest.
  event: () => eventSchemas().RunEventSchema,
  cassette: () => CassetteSchema,
} satisfies Record<string, () => z.ZodType>;

export type SchemaName = keyof typeof JSON_SCHEMAS;

/** The names of the published schemas, in declaration order. */
export function schemaNames(): SchemaName[] {
  return Object.keys(JSON_SCHEMAS) as SchemaName[];
}

/** True when `name` is a published schema. */
export function isSchemaName(name: string): name is SchemaName {
  return Object.hasOwn(JSON_SCHEMAS, name);
}

/** The file a schema is written to, under schemas/. */
export function schemaFileName(name: SchemaName): string {
  return `${name}.schema.json`;
}

/** A draft-07 JSON Schema (what every yaml-language-server version reads) for one format. */
export function toJsonSchema(name: SchemaName): Record<string, unknown> {
  const schema: z.ZodType = JSON_SCHEMAS[name]();
  const { $schema, description, ...rest } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  return {
    $schema,
    $id: schemaFileName(name),
    title: `Wave ${name}`,
    description: description ?? `The Wave ${name} format.`,
    ...rest,
  };
}

/** The exact text of schemas/<name>.schema.json; the staleness test compares files with it. */
export function schemaFileText(name: SchemaName): string {
  return `${JSON.stringify(toJsonSchema(name), null, 2)}\n`;
}
