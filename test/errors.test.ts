import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, WaveError, formatError } from '../src/errors.js';
import { ROOT } from './support/cli.js';

describe('error codes', () => {
  it('documents every code in the README error table', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('formats location, code, message and hint', () => {
    const error = new WaveError('dag_cycle', 'a → b → a', { location: { file: 'p.yaml', line: 3, column: 5 }, hint: 'break the cycle' });
    expect(formatError(error)).toBe('p.yaml:3:5: dag_cycle: a → b → a\n  hint: break the cycle');
    expect(error.toJSON()).toEqual({ code: 'dag_cycle', file: 'p.yaml', line: 3, column: 5, message: 'a → b → a', hint: 'break the cycle' });
  });
});
