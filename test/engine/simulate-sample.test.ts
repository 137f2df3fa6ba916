import { describe, expect, it } from 'vitest';
import { sampleOfSchema } from '../../src/engine/attempt/simulate/schema-sample.js';
import { schemaErrors } from '../../src/json-schema/schema-validator.js';

const SCHEMA = {
  type: 'object',
  required: ['id', 'tags'],
  properties: { id: { type: 'string', format: 'uuid' }, tags: { type: 'array', minItems: 1, items: { enum: ['a', 'b'] } }, note: { type: 'string' } },
  additionalProperties: false,
};

describe('a value generated from a JSON Schema', () => {
  it('satisfies the schema, is the same for the same seed text, and fills in optional properties', () => {
    const first = sampleOfSchema(SCHEMA, 'step\0out.json');
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(schemaErrors(SCHEMA, first.value)).toEqual([]);
    expect(first.value).toHaveProperty('note');
    expect(sampleOfSchema(SCHEMA, 'step\0out.json')).toEqual(first);
  });

  it('reports what no draw could satisfy, and never fetches a remote $ref', () => {
    const impossible = sampleOfSchema({ type: 'integer', minimum: 5, maximum: 2 }, 'x');
    expect(impossible).toEqual({ ok: false, errors: expect.arrayContaining(['(root): must be <= 2']) });
    const remote = sampleOfSchema({ $ref: 'http://127.0.0.1:9/schema.json' }, 'x');
    expect(remote.ok).toBe(false);
  });
});
