import { createHash } from 'node:crypto';
import { generateSync } from 'json-schema-faker';
import { schemaErrors } from '../../../json-schema/schema-validator.js';

/** Seeds tried before a schema counts as one no generated value satisfies (a few draws find a value a strict pattern or enum allows). */
const SEEDS_TRIED = 5;

/** A value generated for a schema, or what kept every draw from satisfying it. */
export type SchemaSample = { ok: true; value: unknown } | { ok: false; errors: string[] };

/** A 32-bit seed from a text: the same step and output always draw the same value. */
export function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/**
 * A value valid against `schema`, drawn deterministically from `seedText` (json-schema-faker's seeded generator, the
 * optional properties filled in too), checked by the same validator the json_schema contract uses.
 */
export function sampleOfSchema(schema: Record<string, unknown>, seedText: string): SchemaSample {
  const seed = seedOf(seedText);
  let errors: string[] = [];
  for (let i = 0; i < SEEDS_TRIED; i++) {
    try {
      // Sync: no remote $ref is ever fetched, so a simulated run reaches no network.
      const value = generateSync(schema, { seed: (seed + i) >>> 0, alwaysFakeOptionals: true });
      errors = schemaErrors(schema, value);
      if (!errors.length) return { ok: true, value };
    } catch (error) {
      errors = [error instanceof Error ? error.message : String(error)];
    }
  }
  return { ok: false, errors };
}
