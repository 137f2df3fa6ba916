// Types of the JSON Schema sampler (schema-sample.mjs), for the TypeScript tests.
export function sampleOf(schema: unknown, root?: unknown, depth?: number): unknown;
export function patternSample(pattern: string): string;
