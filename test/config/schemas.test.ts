import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { listPipelineFiles } from '../../src/config/load/load.js';
import { JSON_SCHEMAS, schemaFileName, schemaFileText, schemaNames, toJsonSchema } from '../../src/schemas.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMAS = join(ROOT, 'schemas');

describe('schemas/', () => {
  it('holds exactly one file per published schema', () => {
    expect(readdirSync(SCHEMAS).sort()).toEqual(schemaNames().map(schemaFileName).sort());
  });

  it.each(schemaNames())('%s.schema.json is up to date with src/config (else run `npm run schemas`)', (name) => {
    const onDisk = readFileSync(join(SCHEMAS, schemaFileName(name)), 'utf8');
    expect(onDisk === schemaFileText(name), `schemas/${schemaFileName(name)} is stale: run \`npm run schemas\``).toBe(true);
  });
});

describe('toJsonSchema', () => {
  it('produces draft-07 with an id, a title and a description', () => {
    for (const name of schemaNames()) {
      const schema = toJsonSchema(name);
      expect(schema).toMatchObject({
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: `${name}.schema.json`,
        title: `Wave ${name}`,
        description: expect.any(String),
      });
    }
    expect(Object.keys(JSON_SCHEMAS)).toEqual(expect.arrayContaining(['manifest', 'pipeline']));
  });

  it('accepts the shipped files and rejects an unknown key, as an editor would', () => {
    // Editors check `format: uri` themselves; Ajv without its formats package takes it as given.
    const ajv = new Ajv({ allErrors: true, strict: false, formats: { uri: true } });
    const manifest = ajv.compile(toJsonSchema('manifest'));
    const pipeline = ajv.compile(toJsonSchema('pipeline'));
    const wave = parse(readFileSync(join(ROOT, 'wave.yaml'), 'utf8'));
    expect(manifest(wave), JSON.stringify(manifest.errors)).toBe(true);
    for (const file of listPipelineFiles(ROOT)) {
      expect(pipeline(parse(readFileSync(file, 'utf8'))), `${file}: ${JSON.stringify(pipeline.errors)}`).toBe(true);
    }
    expect(manifest({ ...wave, adaptors: {} })).toBe(false);
    expect(manifest.errors?.[0]).toMatchObject({ keyword: 'additionalProperties', params: { additionalProperty: 'adaptors' } });
  });
});
