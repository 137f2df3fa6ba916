// Writes schemas/<name>.schema.json for every published format, from the built dist/ (run after the build).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaFileName, schemaFileText, schemaNames } from '../dist/schemas.js';

const dir = fileURLToPath(new URL('../schemas/', import.meta.url));
for (const name of schemaNames()) {
  writeFileSync(join(dir, schemaFileName(name)), schemaFileText(name));
  console.log(`wrote schemas/${schemaFileName(name)}`);
}
