import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redact.js';
import { formatGithubSummary } from '../../src/report/github/github-summary.js';
import type { RunRecord, StepRecord } from '../../src/state/record/run-record.js';
import { sampleAttempt, sampleRecord, sampleStep } from '../state/sample-run.js';

/** A step that failed its contract with `message`, after one attempt of a second. */
function step(id: string, message: string): StepRecord {
  return sampleStep(id, {
    status: 'failed',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    durationMs: 1000,
    attempts: [sampleAttempt(1, '2026-01-01T00:00:00.000Z')],
    contracts: [{ attempt: 1, contract: 'json_schema', passed: false, action: 'fail', errors: [message] }],
    failure: { class: 'contract_failed', message },
  });
}

function record(steps: StepRecord[]): RunRecord {
  return sampleRecord('big-1', { status: 'failed' }, steps);
}

describe('the job summary', () => {
  it('is cut at a line end under the limit, with a note and its code block closed', () => {
    const steps = Array.from({ length: 400 }, (_, i) => step(`step-${i}`, `x`.repeat(300)));
    const summary = formatGithubSummary(record(steps), { redactor: new Redactor([]), runDir: '/runs/big-1', maxBytes: 20_000 });
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(20_000);
    expect(summary).toContain('The summary was cut here');
    expect((summary.match(/^```/gm)?.length ?? 0) % 2).toBe(0);
  });

  it('keeps a run that fits whole: contracts, totals and how to resume', () => {
    const summary = formatGithubSummary(record([step('check', 'missing `ok`')]), { redactor: new Redactor([]), runDir: '/runs/big-1' });
    expect(summary).not.toContain('cut here');
    expect(summary).toContain('| `check` | json_schema | 1 | failed | fail | missing `ok` |');
    expect(summary).toContain('- Resume with: `wave resume big-1`');
  });

  it('hides the run’s secrets', () => {
    const summary = formatGithubSummary(record([step('leak', 'token hunter2-secret')]), { redactor: new Redactor(['hunter2-secret']), runDir: '/runs/big-1' });
    expect(summary).not.toContain('hunter2-secret');
    expect(summary).toContain('[REDACTED]');
  });
});
