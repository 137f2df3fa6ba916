import { readFileSync } from 'node:fs';
import { WaveError } from '../../core/errors/errors.js';
import { ioError } from '../../io-error.js';
import type { RunRecord } from './run-record.js';

/** Reads and sanity-checks a run.json; an unreadable or foreign file is an io_error. */
export function readRunRecord(file: string): RunRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    if (typeof (cause as NodeJS.ErrnoException).code === 'string') throw ioError('read the run record', file, cause);
    throw new WaveError('io_error', `cannot read run record ${file}: ${(cause as Error).message}`, {
      hint: 'Wave writes run.json whole (a new file renamed into place); one that does not parse was changed by something else.',
      cause,
    });
  }
  if (!isRunRecord(parsed)) {
    throw new WaveError('io_error', `${file} is not a Wave run record`, {
      hint: 'Run folders under .wave/runs are written by `wave run`; remove this one if it was edited by hand.',
    });
  }
  return parsed;
}

/** The shape checks a reader needs before trusting run.json's fields. */
function isRunRecord(value: unknown): value is RunRecord {
  if (value === null || typeof value !== 'object') return false;
  const r = value as Partial<RunRecord>;
  return (
    r.version === 1 &&
    typeof r.id === 'string' &&
    typeof r.pipeline === 'string' &&
    typeof r.status === 'string' &&
    typeof r.startedAt === 'string' &&
    r.steps !== null &&
    typeof r.steps === 'object' &&
    r.tokens !== null &&
    typeof r.tokens === 'object'
  );
}
