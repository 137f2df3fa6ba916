// Precompiles ajv's check of a schema against the draft-07 meta-schema into
// src/json-schema/draft07-meta-validator.ts: checking a contract's schema then skips compiling the
// meta-schema on every cold start. Formats are left to compiling the schema itself (a bad `pattern`
// or `$ref` fails there).
import { writeFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';

const OUT = new URL('../src/json-schema/draft07-meta-validator.ts', import.meta.url);
const standaloneCode = standaloneModule.default;

const ajv = new Ajv({ code: { source: true, esm: true }, allErrors: true, strict: false, validateFormats: false });
const code = standaloneCode(ajv, ajv.getSchema('http://json-schema.org/draft-07/schema'));
const requireEqual = 'const func0 = require("ajv/dist/runtime/equal").default;';
const exportDefault = 'export default validate0;';
if (!code.includes(requireEqual) || !code.includes(exportDefault)) throw new Error('ajv standalone output changed: update scripts/write-meta-validator.mjs');

export const META_VALIDATOR_SOURCE = [
  '// @ts-nocheck',
  '// Written by scripts/write-meta-validator.mjs from ajv; do not edit.',
  "import type { ValidateFunction } from 'ajv';",
  "import equalModule from 'ajv/dist/runtime/equal.js';",
  '// CommonJS: Node wraps its exports under `default`, bundlers may not.',
  'const func0 = equalModule.default ?? equalModule;',
  code.replace(requireEqual, '').replace('"use strict";', '').replace(exportDefault, 'export default validate0 as unknown as ValidateFunction;'),
  '',
].join('\n');

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(OUT, META_VALIDATOR_SOURCE);
