// The shared reading of an agent CLI's JSON stream: every parse.ts guards the shapes of its objects with these.
export { parseJsonLine } from '../stream/lines.js';

/** Tool output kept in a tool_result event; the whole output stays in the stdout file. */
export const MAX_TOOL_CONTENT_CHARS = 2_000;

/** One JSON object of a stream, its fields not yet checked. */
export type Json = Record<string, unknown>;

/** Whether a value is a JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string value, else undefined. */
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A finite number, else undefined. */
export const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A finite number, else 0: a count the CLI left out counts nothing. */
export const count = (value: unknown): number => num(value) ?? 0;
