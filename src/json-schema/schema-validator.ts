import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import validateDraft07Schema from './draft07-meta-validator.js';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

// Made on first use: a run without JSON Schemas never pays for them.
let draft07: Ajv | undefined;
let draft2020: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

/** One thing wrong with a JSON Schema: where inside the schema (JSON Pointer segments), and what. */
export interface SchemaProblem {
  path: string[];
  message: string;
}

function ajv2020(): Ajv {
  return (draft2020 ??= addFormats(new Ajv2020({ allErrors: true, strict: false })));
}

/** What makes `schema` unusable as a JSON Schema (draft-07 unless it declares 2020-12), one problem per place in it; empty when it compiles. */
export function schemaProblems(schema: unknown): SchemaProblem[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return [{ path: [], message: 'a JSON Schema must be a mapping (an object)' }];
  const record = schema as Record<string, unknown>;
  let errors: ErrorObject[] | null | undefined;
  if (is2020(record)) {
    const ajv = ajv2020();
    if (!ajv.validateSchema(record)) errors = ajv.errors;
  } else if (!validateDraft07Schema(record)) errors = validateDraft07Schema.errors;
  if (errors?.length) return metaSchemaProblems(errors);
  try {
    compileSchema(record);
    return [];
  } catch (error) {
    return [{ path: [], message: error instanceof Error ? error.message : String(error) }];
  }
}

/** One problem per place in the schema: the most telling error there (an enum's allowed values rather than anyOf's summary). */
function metaSchemaProblems(errors: ErrorObject[]): SchemaProblem[] {
  const byPlace = new Map<string, ErrorObject[]>();
  for (const error of errors) byPlace.set(error.instancePath, [...(byPlace.get(error.instancePath) ?? []), error]);
  return [...byPlace].map(([pointer, found]) => {
    const telling = found.find((e) => !['anyOf', 'oneOf', 'type'].includes(e.keyword)) ?? found.find((e) => e.keyword === 'type') ?? found[0]!;
    const path = pointer
      .split('/')
      .slice(1)
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    const at = path.length ? `\`${path.join('.')}\`` : 'the schema';
    return { path, message: `${at} ${describeAjvError(telling).replace(/^[^:]*: /, '')}` };
  });
}

function is2020(schema: Record<string, unknown>): boolean {
  return typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
}

/** Compiles a JSON Schema (draft-07 unless it declares 2020-12); throws with ajv's message when it is not a schema. */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached) return cached;
  let ajv: Ajv;
  if (is2020(schema)) ajv = ajv2020();
  else {
    // The meta-schema check is precompiled (scripts/write-meta-validator.mjs), so ajv skips its own.
    ajv = draft07 ??= addFormats(new Ajv({ allErrors: true, strict: false, validateSchema: false }));
    if (!validateDraft07Schema(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(validateDraft07Schema.errors)}`);
  }
  // ajv keeps every schema by its $id: the same file read again (another step's contract) would be refused as a duplicate.
  if (typeof schema.$id === 'string' && ajv.getSchema(schema.$id)) ajv.removeSchema(schema.$id);
  const validate = ajv.compile(schema);
  compiled.set(schema, validate);
  return validate;
}

/** The problems of `value` against `schema`, one line each: instance path, then what is wrong. */
export function schemaErrors(schema: Record<string, unknown>, value: unknown): string[] {
  const validate = compileSchema(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describeAjvError);
}

/** One ajv error as `/path: message (detail)`; the root is `(root)`. */
export function describeAjvError(error: ErrorObject): string {
  const at = error.instancePath || '(root)';
  const params = error.params as Record<string, unknown>;
  let detail = '';
  if (error.keyword === 'enum') detail = ` (allowed: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})`;
  else if (error.keyword === 'additionalProperties') detail = ` (\`${String(params.additionalProperty)}\`)`;
  return `${at}: ${error.message ?? error.keyword}${detail}`;
}
