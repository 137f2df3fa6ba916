import { IO_TYPES, inputTypeShape, type IoType } from '../schema/io-types.js';
import { isRecord } from './value-path.js';

/**
 * What a pipeline takes, as `wave run <pipeline> --help` and `--dry-run` show it: the input's type (and the shape a run
 * accepts), its description, example and default, one indented line each; read as written, so a raw block works too.
 */
export function describeInput(input: unknown): string[] {
  const block = isRecord(input) ? input : {};
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const type = text(block.type) ?? 'string';
  const shape = (IO_TYPES as readonly string[]).includes(type) ? inputTypeShape(type as IoType) : undefined;
  const schema = isRecord(block.schema) ? block.schema : {};
  const schemaType = text(schema.type);
  const lines = [`  type:        ${type}${shape ? ` (${shape})` : ' (free text)'}`];
  if (schemaType && schemaType !== 'string') lines.push(`  JSON type:   ${schemaType}`);
  const description = text(schema.description);
  if (description) lines.push(`  description: ${description.trim().replace(/\s*\n\s*/g, ' ')}`);
  const example = text(block.example);
  if (example !== undefined) lines.push(`  example:     ${example}`);
  const fallback = text(block.default);
  lines.push(`  default:     ${fallback === undefined ? '(none)' : fallback === '' ? '(empty)' : fallback}`);
  return lines;
}
