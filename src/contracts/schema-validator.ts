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

/** Compiles a JSON Schema (draft-07 unless it declares 2020-12); throws with ajv's message when it is not a schema. */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached) return cached;
  let ajv: Ajv;
  if (String(schema.$schema ?? '').includes('2020-12')) ajv = draft2020 ??= addFormats(new Ajv2020({ allErrors: true, strict: false }));
  else {
    // The meta-schema check is precompiled (scripts/write-meta-validator.mjs), so ajv skips its own.
    ajv = draft07 ??= addFormats(new Ajv({ allErrors: true, strict: false, validateSchema: false }));
    if (!validateDraft07Schema(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(validateDraft07Schema.errors)}`);
  }
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
