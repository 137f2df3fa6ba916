import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileSchema, schemaErrors } from '../../src/json-schema/schema-validator.js';
// @ts-expect-error: a plain script without types
import { META_VALIDATOR_SOURCE } from '../../scripts/write-meta-validator.mjs';

describe('compileSchema', () => {
  it('src/json-schema/draft07-meta-validator.ts is what scripts/write-meta-validator.mjs writes today', () => {
    const onDisk = readFileSync(new URL('../../src/json-schema/draft07-meta-validator.ts', import.meta.url), 'utf8');
    expect(onDisk === META_VALIDATOR_SOURCE, 'stale: run `node scripts/write-meta-validator.mjs`').toBe(true);
  });

  it.each([
    [{ type: 'strng' }, /schema is invalid: data\/type must be equal to one of the allowed values/],
    [{ properties: { a: { required: 'a' } } }, /schema is invalid: data\/properties\/a\/required must be array/],
    [{ minLength: -1 }, /schema is invalid: data\/minLength must be >= 0/],
    [{ pattern: '(' }, /Invalid regular expression/],
    [{ $ref: '#/definitions/missing' }, /can't resolve reference #\/definitions\/missing/],
    [{ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'strng' }, /schema is invalid: data\/type must be equal to one of the allowed values/],
  ])('refuses %j with ajv’s reason', (schema, reason) => {
    expect(() => compileSchema(schema)).toThrow(reason);
  });

  it('compiles a schema with an $id read again (two steps naming one schema file), each copy checking values as written', () => {
    for (const draft of [{}, { $schema: 'https://json-schema.org/draft/2020-12/schema' }]) {
      const read = (required: string) => ({ ...draft, $id: 'wave://contracts/evidence', type: 'object', required: [required] });
      expect(schemaErrors(read('a'), { a: 1 })).toEqual([]);
      expect(schemaErrors(read('b'), { a: 1 })).toEqual(["(root): must have required property 'b'"]);
      expect(schemaErrors(read('a'), {})).toEqual(["(root): must have required property 'a'"]);
    }
  });

  it('compiles draft-07 (declared or not) and 2020-12 schemas that check values', () => {
    const verdict = { type: 'object', required: ['verdict'], properties: { verdict: { enum: ['pass', 'fail'] }, at: { type: 'string', format: 'date' } } };
    for (const schema of [verdict, { $schema: 'http://json-schema.org/draft-07/schema#', ...verdict }, { $schema: 'https://json-schema.org/draft/2020-12/schema', ...verdict }]) {
      expect(schemaErrors(schema, { verdict: 'pass', at: '2026-11-22' })).toEqual([]);
      expect(schemaErrors(schema, { verdict: 'maybe', at: 'soon' })).toEqual([
        '/verdict: must be equal to one of the allowed values (allowed: "pass", "fail")',
        '/at: must match format "date"',
      ]);
    }
  });
});
