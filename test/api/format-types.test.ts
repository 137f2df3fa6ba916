// The formats' types the API publishes (src/api/format-types.ts) are the ones their schemas infer, and current.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { FORMAT_TYPES_FILE, formatTypesText } from '../../scripts/format-types.mjs';
import type * as Published from '../../src/api/format-types.js';
import type * as Inferred from '../../src/config/schema/manifest-schema.js';
import type { Pipeline } from '../../src/config/schema/pipeline-schema.js';
import { ROOT } from '../support/cli.js';

describe('the published format types', () => {
  it('equal the types the schemas infer', () => {
    expectTypeOf<Published.Manifest>().toEqualTypeOf<Inferred.Manifest>();
    expectTypeOf<Published.AdapterConfig>().toEqualTypeOf<Inferred.AdapterConfig>();
    expectTypeOf<Published.PersonaConfig>().toEqualTypeOf<Inferred.PersonaConfig>();
    expectTypeOf<Published.RuntimeConfig>().toEqualTypeOf<Inferred.RuntimeConfig>();
    expectTypeOf<Published.Pipeline>().toEqualTypeOf<Pipeline>();
  });

  it('are written from the schemas as they are now (run `npm run schemas` after changing one)', async () => {
    const now = await formatTypesText();
    expect(readFileSync(join(ROOT, FORMAT_TYPES_FILE), 'utf8')).toBe(now);
  }, 60_000);
});
