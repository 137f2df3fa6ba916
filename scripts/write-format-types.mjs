// Writes src/api/format-types.ts (scripts/format-types.mjs) from the schemas' sources.
import { writeFileSync } from 'node:fs';
import { FORMAT_TYPES_FILE, formatTypesText } from './format-types.mjs';

writeFileSync(new URL(`../${FORMAT_TYPES_FILE}`, import.meta.url), await formatTypesText());
console.log(`wrote ${FORMAT_TYPES_FILE}`);
