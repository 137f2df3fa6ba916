import { describe, expect, it } from 'vitest';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import type { RunEvent } from '../../src/events.js';
import { roundsOf } from '../../src/state/thread/thread-rounds.js';

const base = { v: 1 as const, runId: 'r' };
let clock = 0;
const ts = () => new Date(Date.UTC(2024, 4, 1, 12, 0, clock++)).toISOString();

type Finished = Extract<RunEvent, { type: 'attempt_finished' }>;

/** An attempt_finished event with defaults: a passed claude attempt answering `text`. */
function finished(stepId: string, attempt: number, overrides: Partial<Finished> = {}): RunEvent {
  return {
    ...base,
    ts: ts(),
    type: 'attempt_finished',
    stepId,
    attempt,
    adapter: 'claude',
    passed: true,
    exitCode: 0,
    durationMs: 100,
    tokens: { ...NO_TOKENS },
    text: `${stepId}#${attempt}`,
    ...overrides,
  };
}

const fileChange = (stepId: string, attempt: number, path: string, extra: { added?: number; removed?: number; binary?: boolean } = {}): RunEvent => ({
  ...base,
  ts: ts(),
  type: 'file_change',
  stepId,
  attempt,
  path,
  change: 'modified',
  ...extra,
});

const contract = (stepId: string, attempt: number, passed: boolean, errors: string[] = []): RunEvent => ({
  ...base,
  ts: ts(),
  type: 'contract_checked',
  stepId,
  attempt,
  contract: 'json_schema',
  passed,
  action: passed ? 'pass' : 'retry',
  errors,
});

describe('roundsOf', () => {
  it('makes one round per attempt_finished, in the order they ended, and ignores every other event', () => {
    const events: RunEvent[] = [
      { ...base, ts: ts(), type: 'run_started', pipeline: 'p', steps: ['a', 'b'], resumed: false },
      { ...base, ts: ts(), type: 'step_started', stepId: 'a', attempt: 1, adapter: 'claude', workspace: '/w' },
      { ...base, ts: ts(), type: 'step_event', stepId: 'a', attempt: 1, event: { kind: 'text', text: 'thinking aloud' } },
      finished('b', 1),
      finished('a', 1, { passed: false, exitCode: 1, failure: { class: 'non_zero_exit', message: 'exit 1' } }),
      finished('a', 2),
    ];
    const rounds = roundsOf(events);
    expect(rounds.map((r) => [r.stepId, r.attempt, r.passed, r.body])).toEqual([
      ['b', 1, true, 'b#1'],
      ['a', 1, false, 'a#1'],
      ['a', 2, true, 'a#2'],
    ]);
    expect(rounds[1]!.failure).toEqual({ class: 'non_zero_exit', message: 'exit 1' });
    expect(rounds[1]!.finishedAt).toBe((events[4] as Finished).ts);
  });

  it("attaches file changes and contract verdicts to their own attempt's round, even when steps interleave", () => {
    const rounds = roundsOf([
      fileChange('a', 1, 'src/one.ts', { added: 3, removed: 1 }),
      fileChange('b', 1, 'b.txt'),
      contract('a', 1, false, ['/verdict must be string']),
      fileChange('a', 1, 'logo.png', { binary: true }),
      finished('a', 1, { passed: false }),
      contract('b', 1, true),
      fileChange('a', 2, 'src/two.ts', { added: 1, removed: 0 }),
      finished('b', 1),
      contract('a', 2, true),
      finished('a', 2),
    ]);
    const byKey = Object.fromEntries(rounds.map((r) => [`${r.stepId}${r.attempt}`, r]));
    expect(byKey.a1!.filesChanged).toEqual([
      { path: 'src/one.ts', change: 'modified', added: 3, removed: 1 },
      { path: 'logo.png', change: 'modified', binary: true },
    ]);
    expect(byKey.a1!.contracts).toEqual([{ contract: 'json_schema', passed: false, errors: ['/verdict must be string'] }]);
    expect(byKey.b1!.filesChanged).toEqual([{ path: 'b.txt', change: 'modified' }]);
    expect(byKey.b1!.contracts).toEqual([{ contract: 'json_schema', passed: true, errors: [] }]);
    // Attempt 2 starts afresh: attempt 1's changes and verdicts are not carried over.
    expect(byKey.a2!.filesChanged).toEqual([{ path: 'src/two.ts', change: 'modified', added: 1, removed: 0 }]);
    expect(byKey.a2!.contracts).toEqual([{ contract: 'json_schema', passed: true, errors: [] }]);
  });

  it("carries the attempt's persona, model, tokens, cost and JSON output", () => {
    const tokens = { input: 10, output: 2, cacheRead: 3, cacheWrite: 4 };
    const [round] = roundsOf([finished('a', 1, { persona: 'navigator', model: 'sonnet', tokens, costUsd: 0.25, output: { verdict: 'ok' }, durationMs: 1234, exitCode: null })]);
    expect(round).toEqual({
      stepId: 'a',
      attempt: 1,
      finishedAt: expect.any(String),
      persona: 'navigator',
      adapter: 'claude',
      model: 'sonnet',
      passed: true,
      exitCode: null,
      durationMs: 1234,
      tokens,
      costUsd: 0.25,
      filesChanged: [],
      contracts: [],
      output: { verdict: 'ok' },
      body: 'a#1',
    });
  });

  it('has no rounds for attempts that have not ended', () => {
    expect(roundsOf([fileChange('a', 1, 'x'), contract('a', 1, true)])).toEqual([]);
    expect(roundsOf([])).toEqual([]);
  });
});
