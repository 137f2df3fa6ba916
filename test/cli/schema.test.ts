import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runWave } from '../support/cli.js';

describe('wave schema', () => {
  it.each(['manifest', 'pipeline', 'cassette'])('prints schemas/%s.schema.json', async (name) => {
    const result = await runWave(['schema', name]);
    expect(result.code).toBe(0);
    // The runner strips the final newline of stdout.
    expect(`${result.stdout}\n`).toBe(readFileSync(join(ROOT, 'schemas', `${name}.schema.json`), 'utf8'));
    expect(JSON.parse(result.stdout)).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', title: `Wave ${name}` });
  });

  it('rejects an unknown name with exit 2, listing the names', async () => {
    const result = await runWave(['schema', 'manifests']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('invalid_argument: no schema named `manifests`');
    expect(result.stderr).toMatch(/hint: Name one of: manifest, pipeline, event, cassette\./);
  });
});
