import { describe, expect, it } from 'vitest';
import { formatStatusLine, formatSummary } from '../../src/report/summary.js';
import { sampleRecord, sampleStep } from '../state/sample-run.js';
import { RUN_ID, SCRIPTED_SUMMARY_LINES, scriptedRecord } from './scripted-run.js';

const runDir = `/project/.wave/runs/${RUN_ID}`;

describe('formatSummary', () => {
  it('lists each step with status, duration, tokens, cost and artifacts, then the run and the resume hint', () => {
    expect(formatSummary(scriptedRecord(), runDir, { cwd: '/project' })).toBe([...SCRIPTED_SUMMARY_LINES, ''].join('\n'));
  });

  it('shows absolute paths outside the working folder and no resume hint for a completed run', () => {
    const record = sampleRecord(RUN_ID, { status: 'completed', durationMs: 65_000 }, [
      sampleStep('only', { status: 'completed', durationMs: 65_000, artifacts: [{ name: 'r', path: 'artifacts/only/r.json', bytes: 3 }] }),
    ]);
    const text = formatSummary(record, runDir, { cwd: '/elsewhere' });
    expect(text).toContain(`→ ${runDir}/artifacts/only/r.json`);
    expect(text).toContain(`✓ run ${RUN_ID} completed in 1m05s`);
    expect(text).not.toContain('resume');
  });

  it("counts a sandboxed step's refused egress on its line", () => {
    const record = sampleRecord(RUN_ID, { status: 'completed', durationMs: 3_000 }, [sampleStep('fetch', { status: 'completed', durationMs: 3_000, egressDenied: 2 })]);
    expect(formatSummary(record, runDir, { cwd: '/project' })).toMatch(/✓ fetch {2}completed {4}3\.0s {2}2 egress denied\n/);
  });

  it('measures a running run and its running steps against the clock', () => {
    const record = sampleRecord(RUN_ID, { status: 'running', startedAt: '2024-05-01T12:00:00.000Z' }, [
      sampleStep('slow', { status: 'running', startedAt: '2024-05-01T12:00:10.000Z' }),
    ]);
    const text = formatSummary(record, runDir, { cwd: '/project', now: Date.parse('2024-05-01T12:00:42.000Z') });
    expect(text).toContain('▸ slow  running   32.0s');
    expect(text).toContain(`▸ run ${RUN_ID} running for 42.0s`);
  });

  it('colours marks and statuses only when asked', () => {
    const plain = formatSummary(scriptedRecord(), runDir);
    const coloured = formatSummary(scriptedRecord(), runDir, { color: true });
    expect(plain).not.toContain('\x1b[');
    expect(coloured).toContain('\x1b[32m✓\x1b[0m');
    expect(coloured).toContain('\x1b[31m✗\x1b[0m');
  });
});

describe('formatStatusLine', () => {
  it('is one line: mark, id, status, duration, tokens, cost', () => {
    expect(formatStatusLine(scriptedRecord())).toBe(`✗ run ${RUN_ID} failed in 7.1s · 12.3k in / 678 out · $0.0123`);
    expect(formatStatusLine(sampleRecord('r', { status: 'cancelled', durationMs: 900 }))).toBe('⊘ run r cancelled in 0.9s');
  });
});
