import { readFileSync } from 'node:fs';
import type { SchemaProblem } from '../../json-schema/schema-validator.js';
import { WaveError } from '../../core/errors/errors.js';
import { resolveFromManifest } from '../load/file-refs.js';
import type { Locator } from '../load/locator.js';
import { isRecord, type Path } from '../load/value-path.js';

/** Says what is wrong with a JSON Schema (schemaProblems of src/contracts, loaded only by commands that read pipelines). */
export type SchemaInspector = (schema: unknown) => SchemaProblem[];

/** Where schemas are checked: the manifest's folder (schema_path resolves from it), its locator and the inspector. */
export interface SchemaCheckContext {
  manifestDir: string;
  locator: Locator;
  inspect: SchemaInspector;
}

const HINT = 'Give a JSON Schema mapping (draft-07, or 2020-12 with `$schema`), e.g. `{ type: object, required: [verdict] }`.';

/**
 * The JSON Schema of a json_schema contract or an extract, checked where it is written: an inline mapping at the very
 * key that is wrong, JSON text or a schema_path file at that key. A missing schema is reported at the contract.
 */
export function checkSchemaSource(spec: Record<string, unknown>, at: Path, what: string, context: SchemaCheckContext): WaveError[] {
  const { manifestDir, locator, inspect } = context;
  const { schema, schema_path: schemaPath } = spec;
  const problem = (message: string, path: Path) => new WaveError('pipeline_invalid', `${what}: ${message}`, { location: locator.locate(path), hint: HINT });
  if (schema === undefined && schemaPath === undefined) {
    return [
      new WaveError('missing_field', `${what} needs \`schema\` or \`schema_path\``, {
        location: locator.locate(at),
        hint: 'Add `schema:` (a JSON Schema written here) or `schema_path:` (a JSON Schema file, relative to wave.yaml).',
      }),
    ];
  }
  if (typeof schemaPath === 'string' && schemaPath !== '' && !schemaPath.includes('{{')) {
    const file = resolveFromManifest(manifestDir, schemaPath);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return []; // A missing file is reported as file_not_found by the reference checks.
    }
    const parsed = parseJson(text);
    const where = [...at, 'schema_path'];
    if ('error' in parsed) return [problem(`schema_path \`${schemaPath}\` is not JSON: ${parsed.error}`, where)];
    return inspect(parsed.value).map((p) => problem(`schema_path \`${schemaPath}\` is not a usable JSON Schema: ${p.message}`, where));
  }
  if (isRecord(schema)) {
    // Each problem points at its own key inside the mapping.
    return inspect(schema).map((p) => problem(`the inline schema is not a usable JSON Schema: ${p.message}`, [...at, 'schema', ...p.path]));
  }
  if (typeof schema === 'string') {
    const parsed = parseJson(schema);
    const where = [...at, 'schema'];
    if ('error' in parsed) return [problem(`the inline schema is not JSON: ${parsed.error}`, where)];
    return inspect(parsed.value).map((p) => problem(`the inline schema is not a usable JSON Schema: ${p.message}`, where));
  }
  return []; // Another type is the format's wrong_type.
}

function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
