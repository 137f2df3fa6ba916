import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

/** Every event `type` the published event format allows. */
function eventTypes(): string[] {
  const types: string[] = [];
  JSON.parse(readFileSync(join(ROOT, 'schemas', 'event.schema.json'), 'utf8'), (key, value: unknown) => {
    if (key === 'type' && typeof value === 'object' && value !== null && 'const' in value) types.push(String(value.const));
    return value;
  });
  return types;
}

describe('the events table of docs/run-folder-and-events.md', () => {
  it('has one row per event type of schemas/event.schema.json, in its order', () => {
    const page = readFileSync(join(ROOT, 'docs', 'run-folder-and-events.md'), 'utf8');
    const section = page.slice(page.indexOf('## Events'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((row) => row[1]);
    expect(eventTypes().length).toBeGreaterThan(20);
    expect(rows).toEqual(eventTypes());
  });
});
