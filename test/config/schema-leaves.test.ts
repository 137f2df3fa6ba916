import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManifestSchema } from '../../src/config/schema/manifest-schema.js';
import { PipelineSchema } from '../../src/config/schema/pipeline-schema.js';
import { readerSources, readsKey, schemaLeaves, unreadLeaves } from '../support/schema-leaves.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * Keys that are information only: Wave itself gives them no behaviour either, or they state what this
 * version always does. Every other leaf must be read by code under src/ (or be refused by name).
 */
const DOCUMENTATION_ONLY = new Set([
  // The format version: v1 is the only one.
  'apiVersion',
  // Where the project lives; read by Wave's forge features, which are refused by name (metadata.forge names the forge whose token scopes are checked).
  'metadata.repo',
  // Wave lists these but never acts on them: headless, and the CLI's own stream format, are the only ways an agent runs.
  'adapters.*.mode',
  'adapters.*.output_format',
  'adapters.*.project_files',
  // Descriptions, for people and listings.
  'metadata.description',
  'personas.*.description',
  'steps[].description',
  'input.schema.description',
  // Listing facts of a pipeline: shipped as stable, and its group.
  'metadata.release',
  'metadata.category',
  // `cli` is where the input always comes from (other values are refused).
  'input.source',
  // `fresh`, the only strategy accepted: every step starts with a new agent context.
  'steps[].memory.strategy',
]);

describe('every configuration key has a reader', () => {
  const sources = readerSources(SRC);

  it.each([
    ['ManifestSchema', ManifestSchema],
    ['PipelineSchema', PipelineSchema],
  ])('%s: each leaf key is read under src/ or listed as documentation only', (_name, schema) => {
    expect(unreadLeaves(schema, sources, DOCUMENTATION_ONLY)).toEqual([]);
  });

  it('lists documentation-only keys that exist in the schemas', () => {
    const leaves = new Set([...schemaLeaves(ManifestSchema), ...schemaLeaves(PipelineSchema)].map((l) => l.path));
    for (const path of DOCUMENTATION_ONLY) expect(leaves, path).toContain(path);
  });
});

describe('the reader check itself', () => {
  const FAKE = z.strictObject({
    kept: z.string(),
    nested: z.record(z.string(), z.array(z.strictObject({ surely_nobody_reads_this: z.number().optional() }))),
  });

  it('walks records, arrays and optionals down to the leaves', () => {
    expect(schemaLeaves(FAKE).map((l) => l.path)).toEqual(['kept', 'nested.*[].surely_nobody_reads_this']);
  });

  it('fails for a leaf nobody reads, and passes once something reads it', () => {
    const source = 'const a = config.kept;';
    expect(unreadLeaves(FAKE, [source], new Set())).toEqual(['nested.*[].surely_nobody_reads_this']);
    expect(unreadLeaves(FAKE, [source, 'x?.surely_nobody_reads_this'], new Set())).toEqual([]);
    expect(unreadLeaves(FAKE, [source], new Set(['nested.*[].surely_nobody_reads_this']))).toEqual([]);
  });

  it.each([
    ['a.key', true],
    ['a?.key', true],
    ["a['key']", true],
    ['const { key, other } = a;', true],
    ["'key' in a", true],
    ["Object.hasOwn(a, 'key')", true],
    ['a.keys', false],
    ['a.key()', false],
    ['// the key word', false],
  ])('%s reads `key`: %s', (source, reads) => {
    expect(readsKey(source, 'key')).toBe(reads);
  });
});
