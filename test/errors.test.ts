import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WaveError, formatError } from '../src/core/errors/errors.js';
import { exitCodeOf } from '../src/core/errors/exit-codes.js';
import { ERROR_CODES, FAILURE_CLASSES, isFailureClass, isRetried, type ErrorCode } from '../src/core/errors/error-codes.js';
import { ROOT } from './support/cli.js';

describe('error codes', () => {
  it('documents every code in the error table of docs/errors-and-exit-codes.md, with its exit code and its retry', () => {
    const page = readFileSync(join(ROOT, 'docs', 'errors-and-exit-codes.md'), 'utf8');
    const rows = [...page.matchAll(/^\| `([a-z_]+)` \| (\d+) \| ([^|]+) \|/gm)].map((m) => [m[1], Number(m[2]), m[3]!.trim()]);
    const expected = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => [code, exitCodeOf(code), isFailureClass(code) ? (isRetried(code) ? 'retried' : 'not retried') : '—']);
    expect(rows).toEqual(expected);
  });

  it('lets a step fail with the classes its agents report, and never retries what a new attempt cannot fix', () => {
    expect(FAILURE_CLASSES).toEqual(expect.arrayContaining(['max_turns', 'budget_exhausted', 'template_invalid', 'mount_modified', 'io_error']));
    expect(FAILURE_CLASSES).not.toContain('dag_cycle');
    expect(FAILURE_CLASSES.filter((c) => !isRetried(c)).sort()).toEqual(
      [
        'aborted',
        'auth_failed',
        'budget_exhausted',
        'contract_failed',
        'internal',
        'io_error',
        'mount_modified',
        'gate_rejected',
        'not_supported',
        'pipeline_too_deep',
        'replay_exhausted',
        'replay_incomplete',
        'replay_mismatch',
        'replay_unrecorded',
        'route_stopped',
        'simulate_fixture_invalid',
        'simulate_unsatisfiable',
        'spawn_failed',
        'template_invalid',
        'workspace_failed',
      ].sort(),
    );
  });

  it('formats location, code, message and hint', () => {
    const error = new WaveError('dag_cycle', 'a → b → a', { location: { file: 'p.yaml', line: 3, column: 5 }, hint: 'Break the cycle.' });
    expect(formatError(error)).toBe('p.yaml:3:5: dag_cycle: a → b → a\n  hint: Break the cycle.');
    expect(error.toJSON()).toEqual({ code: 'dag_cycle', file: 'p.yaml', line: 3, column: 5, message: 'a → b → a', hint: 'Break the cycle.' });
  });
});
