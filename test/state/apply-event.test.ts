import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import { applyEvent, creationEvent, foldEvents } from '../../src/state/record/apply-event.js';
import { sampleRecord, sampleStep } from './sample-run.js';

const base = { v: 1 as const, runId: 'r', ts: '2026-01-01T00:00:00.000Z' };
const tokens = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };

/** The record of a fresh run of steps `ids` after `events`. */
function folded(ids: string[], events: RunEvent[]) {
  const created = creationEvent(
    sampleRecord(
      'r',
      { status: 'pending', startedAt: base.ts },
      ids.map((id) => sampleStep(id)),
    ),
  );
  return foldEvents([created, ...events])!;
}

describe('applyEvent', () => {
  it('marks a step completed when the events saw it finish, with the artifacts of its last attempt', () => {
    const events: RunEvent[] = [
      { ...base, type: 'step_began', stepId: 'a' },
      { ...base, type: 'step_began', stepId: 'b' },
      { ...base, type: 'step_started', stepId: 'a', attempt: 1, adapter: 'command', workspace: '/w/a' },
      { ...base, type: 'artifact_saved', stepId: 'a', name: 'old', path: 'artifacts/a/old', bytes: 1 },
      { ...base, type: 'step_started', stepId: 'a', attempt: 2, adapter: 'command', workspace: '/w/a' },
      { ...base, type: 'artifact_saved', stepId: 'a', name: 'out', path: 'artifacts/a/out.txt', bytes: 3 },
      { ...base, type: 'attempt_finished', stepId: 'a', attempt: 2, adapter: 'command', passed: true, exitCode: 0, durationMs: 5, tokens, text: '' },
      { ...base, type: 'step_completed', stepId: 'a', attempt: 2, durationMs: 5, tokens },
      { ...base, type: 'step_started', stepId: 'b', attempt: 1, adapter: 'command', workspace: '/w/b' },
    ];
    const record = folded(['a', 'b', 'c'], events);
    expect(record.steps.a).toMatchObject({ status: 'completed', durationMs: 5, tokens, artifacts: [{ name: 'out', path: 'artifacts/a/out.txt', bytes: 3 }] });
    expect(record.steps.a!.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(record.steps.b!.status).toBe('running');
    expect(record.steps.c!.status).toBe('pending');
  });

  it('does not keep a completion older than the step’s last start', () => {
    const events: RunEvent[] = [
      { ...base, type: 'step_started', stepId: 'a', attempt: 1, adapter: 'command', workspace: '/w' },
      { ...base, type: 'step_completed', stepId: 'a', attempt: 1, durationMs: 5, tokens },
      { ...base, type: 'step_started', stepId: 'a', attempt: 2, adapter: 'command', workspace: '/w' },
    ];
    expect(folded(['a'], events).steps.a!.status).toBe('running');
  });

  it('folds a resume: interrupted attempts kept and marked, unfinished steps back to pending, the run pending again', () => {
    const record = folded(
      ['a', 'b'],
      [
        { ...base, type: 'run_started', pipeline: 'hello', steps: ['a', 'b'], resumed: false, pid: 4242 },
        { ...base, type: 'step_began', stepId: 'a' },
        { ...base, type: 'step_started', stepId: 'a', attempt: 1, adapter: 'claude', workspace: '/w' },
      ],
    );
    expect(record).toMatchObject({ status: 'running', pid: 4242 });
    applyEvent(record, { ...base, type: 'attempt_interrupted', stepId: 'a', attempt: 1, adapter: 'claude', startedAt: base.ts });
    applyEvent(record, { ...base, type: 'attempt_interrupted', stepId: 'a', attempt: 2, adapter: 'unknown', startedAt: base.ts, pid: 7 });
    applyEvent(record, { ...base, type: 'steps_reset', steps: [{ id: 'a', optional: false, dependencies: [] }] });
    expect(record.status).toBe('pending');
    expect(record.steps.a).toMatchObject({
      status: 'pending',
      attempts: [
        { attempt: 1, interrupted: true },
        { attempt: 2, interrupted: true, pid: 7 },
      ],
    });
    expect(record.steps.a!.attempts[0]!.failure).toMatchObject({ class: 'aborted' });
  });

  it('counts denied egress, model requests and attempts into their step, and ends the run with its totals', () => {
    const record = folded(
      ['a'],
      [
        { ...base, type: 'step_began', stepId: 'a' },
        { ...base, type: 'step_started', stepId: 'a', attempt: 1, adapter: 'claude', workspace: '/w' },
        { ...base, type: 'egress', stepId: 'a', attempt: 1, host: 'x.test', port: 443, allowed: false, via: 'connect' },
        { ...base, type: 'egress', stepId: 'a', attempt: 1, host: 'y.test', port: 443, allowed: true, via: 'connect' },
        { ...base, type: 'model_request', stepId: 'a', attempt: 1, purpose: 'judge', adapter: 'claude', ok: true, tokens, costUsd: 0.5 },
        {
          ...base,
          type: 'attempt_finished',
          stepId: 'a',
          attempt: 1,
          adapter: 'claude',
          passed: true,
          exitCode: 0,
          durationMs: 5,
          tokens,
          costUsd: 0.25,
          text: '',
          sessionId: 's-1',
        },
        { ...base, type: 'run_finished', status: 'completed', durationMs: 9, tokens, costUsd: 0.75 },
      ],
    );
    expect(record.steps.a).toMatchObject({ egressDenied: 1, tokens: { input: 2, output: 4 }, costUsd: 0.75 });
    expect(record.steps.a!.attempts[0]).toMatchObject({ sessionId: 's-1', costUsd: 0.25, durationMs: 5 });
    expect(record).toMatchObject({ status: 'completed', durationMs: 9, finishedAt: base.ts, costUsd: 0.75 });
  });
  it("adds up a step's tokens and cost over its visits: a route back requeues it, its next visit spends more", () => {
    const visit = (attempt: number): RunEvent[] => [
      { ...base, type: 'step_began', stepId: 'fix' },
      { ...base, type: 'step_started', stepId: 'fix', attempt, adapter: 'claude', workspace: '/w' },
      { ...base, type: 'attempt_finished', stepId: 'fix', attempt, adapter: 'claude', passed: true, exitCode: 0, durationMs: 5, tokens, costUsd: 0.25, text: '' },
      { ...base, type: 'step_completed', stepId: 'fix', attempt, durationMs: 5, tokens },
    ];
    const record = folded(
      ['fix', 'test'],
      [...visit(1), { ...base, type: 'step_routed', stepId: 'test', target: 'fix', outcome: 'failure', requeued: ['fix', 'test'] }, ...visit(2)],
    );
    expect(record.steps.fix).toMatchObject({ status: 'completed', visits: 2, tokens: { input: 2, output: 4 }, costUsd: 0.5 });
    // Requeued and left pending, it still holds what it spent.
    applyEvent(record, { ...base, type: 'step_routed', stepId: 'test', target: 'fix', outcome: 'failure', requeued: ['fix'] });
    expect(record.steps.fix).toMatchObject({ status: 'pending', tokens: { input: 2, output: 4 }, costUsd: 0.5 });
  });
});
