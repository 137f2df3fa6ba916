import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventSchemas } from '../../src/event-schema.js';
import { EVERY_EVENT } from './event-samples.js';

const { RunEventSchema } = eventSchemas();

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

describe('RunEventSchema', () => {
  it('accepts one event of every type, unchanged', () => {
    const types = new Set(EVERY_EVENT.map((e) => e.type));
    // Every type the schema defines has a sample (the list is the schema's own, so a new type without one fails).
    expect([...types].sort()).toEqual(RunEventSchema.options.map((o) => o.shape.type.value).sort());
    for (const event of EVERY_EVENT) expect(RunEventSchema.parse(event)).toEqual(event);
  });

  it('rejects events that do not match RunEvent', () => {
    const started = EVERY_EVENT[0]!;
    const bad = [
      { ...started, v: 2 },
      { ...started, ts: 'yesterday' },
      { ...started, type: 'run_paused' },
      { ...started, extra: true },
      { ...EVERY_EVENT[1], attempt: 0 },
      { ...EVERY_EVENT[11], failure: { class: 'unknown_class', message: 'x' } },
      { ...EVERY_EVENT[3], event: { kind: 'output', bytes: 10 } },
      Object.fromEntries(Object.entries(started).filter(([key]) => key !== 'runId')),
    ];
    for (const event of bad) expect(RunEventSchema.safeParse(event).success, JSON.stringify(event)).toBe(false);
  });

  it('exports a draft-07 JSON Schema that agrees with the zod schema', () => {
    const jsonSchema = z.toJSONSchema(RunEventSchema, { target: 'draft-7' });
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(jsonSchema);
    for (const event of EVERY_EVENT) expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...EVERY_EVENT[0], v: 2 })).toBe(false);
    expect(validate({ ...EVERY_EVENT[0], type: 'run_paused' })).toBe(false);
  });
});
