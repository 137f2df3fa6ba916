import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import { reconcileWithEvents } from '../../src/state/reconcile-events.js';
import { sampleRecord, sampleStep } from './sample-run.js';

const base = { v: 1 as const, runId: 'r', ts: '2026-01-01T00:00:00.000Z' };
const tokens = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };

describe('reconcileWithEvents', () => {
  it('marks a step completed when only the event log saw it finish, with its artifacts', () => {
    const record = sampleRecord('r', {}, [sampleStep('a', { status: 'running' }), sampleStep('b', { status: 'running' }), sampleStep('c')]);
    const events: RunEvent[] = [
      { ...base, type: 'step_started', stepId: 'a', attempt: 1, adapter: 'command', workspace: '/w/a' },
      { ...base, type: 'artifact_saved', stepId: 'a', name: 'old', path: 'artifacts/a/old', bytes: 1 },
      { ...base, type: 'step_started', stepId: 'a', attempt: 2, adapter: 'command', workspace: '/w/a' },
      { ...base, type: 'artifact_saved', stepId: 'a', name: 'out', path: 'artifacts/a/out.txt', bytes: 3 },
      { ...base, type: 'step_completed', stepId: 'a', attempt: 2, durationMs: 5, tokens },
      { ...base, type: 'step_started', stepId: 'b', attempt: 1, adapter: 'command', workspace: '/w/b' },
    ];
    expect(reconcileWithEvents(record, events)).toEqual(['a']);
    expect(record.steps.a).toMatchObject({ status: 'completed', durationMs: 5, tokens, artifacts: [{ name: 'out', path: 'artifacts/a/out.txt', bytes: 3 }] });
    expect(record.steps.b!.status).toBe('running');
    expect(record.steps.c!.status).toBe('pending');
  });

  it('does not trust a completion older than the step’s last start', () => {
    const record = sampleRecord('r', {}, [sampleStep('a', { status: 'running' })]);
    const events: RunEvent[] = [
      { ...base, type: 'step_started', stepId: 'a', attempt: 1, adapter: 'command', workspace: '/w' },
      { ...base, type: 'step_completed', stepId: 'a', attempt: 1, durationMs: 5, tokens },
      { ...base, type: 'step_started', stepId: 'a', attempt: 2, adapter: 'command', workspace: '/w' },
    ];
    expect(reconcileWithEvents(record, events)).toEqual([]);
    expect(record.steps.a!.status).toBe('running');
  });
});
