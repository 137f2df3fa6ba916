import { describe, expect, it } from 'vitest';
import { failureOfError } from '../../src/core/errors/failure.js';
import { FAILURE_CLASSES, type FailureClass } from '../../src/core/errors/error-codes.js';
import { WaveError, WaveErrors } from '../../src/core/errors/errors.js';

describe('failureOfError', () => {
  it.each(FAILURE_CLASSES)('keeps the code %s of a WaveError as its class, with message and hint', (code) => {
    const error = new WaveError(code, 'it went wrong', { hint: 'Do this.' });
    expect(failureOfError(error, 'workspace_failed')).toEqual({ class: code, message: 'it went wrong', hint: 'Do this.' });
  });

  it('makes a code no step raises an internal failure, and gives any other error the class the caller names', () => {
    expect(failureOfError(new WaveError('dag_cycle', 'a → a'), 'workspace_failed')).toEqual({ class: 'internal', message: 'a → a' });
    const otherwise: FailureClass = 'artifact_missing';
    expect(failureOfError(new Error('ENOENT: no such file'), otherwise)).toEqual({ class: 'artifact_missing', message: 'ENOENT: no such file' });
    expect(failureOfError('plain text', 'internal')).toEqual({ class: 'internal', message: 'plain text' });
  });

  it("fails as the first problem of a file that does not load (a child pipeline's), naming each problem", () => {
    const problems = new WaveErrors([new WaveError('not_supported', '`loop` is not supported yet', { hint: 'Remove it.' }), new WaveError('unknown_key', 'unknown key `x`')]);
    expect(failureOfError(problems, 'internal')).toEqual({
      class: 'not_supported',
      message: 'not_supported: `loop` is not supported yet\nunknown_key: unknown key `x`',
      hint: 'Remove it.',
    });
  });
});
