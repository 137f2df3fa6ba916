import { describe, expect, it } from 'vitest';
import { AdapterRegistry } from '../../src/adapters/registry.js';
import type { AdapterResult, AdapterRunner } from '../../src/adapters/types.js';
import { contractFeedback } from '../../src/contracts/retry-feedback.js';
import { EventBus, type RunEvent } from '../../src/events.js';
import { failureFeedback } from '../../src/engine/steps/retry-prompt.js';
import { executeRun } from '../../src/engine/run/run-pipeline.js';
import { plannedRun } from '../support/mock-run.js';
import { MockRunner, type MockScriptFor } from '../support/mock-runner.js';

const MANIFEST = `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: { binary: claude }
  codex: { binary: codex }
personas:
  agent: { adapter: claude, fallbacks: [codex] }
`;

const tokens = (input: number) => ({ input, output: 1, cacheRead: 0, cacheWrite: 0 });

/** Runs a pipeline in-process on a mock runner standing in for claude and codex, which resumes sessions unless `resumes` is false. */
async function execute(pipeline: string, scriptFor: MockScriptFor, resumes = true) {
  const { plan, store } = await plannedRun(pipeline, { manifest: MANIFEST });
  const mock = new MockRunner(scriptFor);
  const as = (type: 'claude' | 'codex'): AdapterRunner => ({
    type,
    ...(resumes ? { continuesSessions: true } : {}),
    run: (config, signal, onEvent) => mock.run(config, signal, onEvent),
  });
  const bus = new EventBus();
  const events: RunEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const registry = new AdapterRegistry().register(as('claude')).register(as('codex'));
  const status = await executeRun({ plan, store, bus, registry, parentEnv: process.env }, { onFailure: 'halt', signal: new AbortController().signal });
  const sessionEvents = events.filter((e) => e.type === 'session_continued' || e.type === 'session_fresh');
  return { status, record: store.record, events: sessionEvents, calls: mock.calls, attemptDir: (n: number) => store.attemptPath('a', n) };
}

const stepA = (extra = '') => `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - { id: a, persona: agent, exec: { source: "do a" }${extra} }\n`;
const RETRY = ', retry: { max_attempts: 3, base_delay: 1ms }';
const FAILURE = { class: 'non_zero_exit' as const, message: 'tests failed: 3' };

/** Attempt 1 fails in session `ses-1`; later attempts succeed (or run the given result). */
const failsFirst =
  (later: Partial<AdapterResult> = {}): MockScriptFor =>
  (_config, attempt) =>
    attempt === 1
      ? { result: { ok: false, exitCode: 1, failure: FAILURE, outputTail: 'FAIL', sessionId: 'ses-1', tokens: tokens(10) } }
      : { result: { text: 'done', sessionId: 'ses-1', ...later } };

describe('a retry continues the agent session (retry.continue_session)', () => {
  it('retry policy: the retry resumes attempt 1 session and is sent only the failure feedback; run.json records both', async () => {
    const { status, calls, events, record, attemptDir } = await execute(stepA(RETRY), failsFirst());
    expect(status).toBe('completed');
    expect(calls[0]!.continueFrom).toBeUndefined();
    expect(calls[1]!.continueFrom).toEqual({ sessionId: 'ses-1', previousAttemptDir: attemptDir(1), sessionTokens: tokens(10) });
    expect(calls[1]!.prompt).toBe(failureFeedback(1, FAILURE, 'FAIL'));
    expect(calls[1]!.prompt).not.toContain('do a');
    expect(events).toMatchObject([{ type: 'session_continued', stepId: 'a', attempt: 2, sessionId: 'ses-1', from: 1 }]);
    expect(record.steps.a!.attempts.map((a) => [a.sessionId, a.continuedFrom])).toEqual([
      ['ses-1', undefined],
      ['ses-1', 1],
    ]);
  });

  it('contract retry: the retry resumes the session and is sent only the contract errors', async () => {
    const pipeline = stepA(', handover: { contract: { type: json_schema, schema: { type: object, required: [ok] }, on_failure: retry, max_retries: 1 } }');
    const { status, calls, events } = await execute(pipeline, (_config, attempt) => ({
      result: { text: attempt === 1 ? '{"nope": 1}' : '{"ok": true}', sessionId: 'ses-c' },
    }));
    expect(status).toBe('completed');
    expect(calls[1]!.continueFrom?.sessionId).toBe('ses-c');
    expect(calls[1]!.prompt).toBe(contractFeedback(1, "1:json_schema the step's output", ["(root): must have required property 'ok'"], '{"nope": 1}'));
    expect(calls[0]!.prompt).toContain('do a');
    expect(calls[1]!.prompt).not.toContain('do a');
    expect(events).toMatchObject([{ type: 'session_continued', attempt: 2, sessionId: 'ses-c', from: 1 }]);
  });

  it('sums what the session used over the attempts it continued, for a CLI that reports session totals', async () => {
    const { calls } = await execute(stepA(RETRY), (_config, attempt) =>
      attempt < 3 ? { result: { ok: false, failure: FAILURE, sessionId: 'ses-t', tokens: tokens(attempt * 10) } } : { result: { sessionId: 'ses-t' } },
    );
    expect(calls[2]!.continueFrom?.sessionTokens).toEqual({ input: 30, output: 2, cacheRead: 0, cacheWrite: 0 });
  });

  it('continue_session: false starts each retry fresh with the whole prompt and the feedback, and says nothing about sessions', async () => {
    const { calls, events, record } = await execute(stepA(', retry: { max_attempts: 2, base_delay: 1ms, continue_session: false }'), failsFirst());
    expect(calls[1]!.continueFrom).toBeUndefined();
    expect(calls[1]!.prompt).toBe(`do a\n\n${failureFeedback(1, FAILURE, 'FAIL')}`);
    expect(events).toEqual([]);
    expect(record.steps.a!.attempts[1]!.continuedFrom).toBeUndefined();
  });

  it('starts fresh, saying why, when the previous attempt reported no session id', async () => {
    const { calls, events } = await execute(stepA(RETRY), (_config, attempt) => (attempt === 1 ? { result: { ok: false, failure: FAILURE } } : {}));
    expect(calls[1]!.continueFrom).toBeUndefined();
    expect(calls[1]!.prompt).toMatch(/^do a\n\n## Previous attempt 1 failed/);
    expect(events).toMatchObject([{ type: 'session_fresh', attempt: 2, reason: 'attempt 1 reported no session id' }]);
  });

  it('never hands back a session id that is not a plain token (it comes from agent output)', async () => {
    const { calls, events, record } = await execute(stepA(RETRY), (_config, attempt) =>
      attempt === 1 ? { result: { ok: false, failure: FAILURE, sessionId: '--dangerously-skip-permissions' } } : {},
    );
    expect(calls[1]!.continueFrom).toBeUndefined();
    expect(events).toMatchObject([{ type: 'session_fresh', reason: 'attempt 1 reported a session id that is not a plain token' }]);
    expect(record.steps.a!.attempts[0]!.sessionId).toBeUndefined();
  });

  it('a CLI that refuses to resume: the next attempt starts fresh with the whole prompt, off the retry budget', async () => {
    const { status, calls, events, record } = await execute(stepA(', retry: { max_attempts: 2, base_delay: 1ms }'), (config, attempt) => {
      if (attempt === 1) return { result: { ok: false, failure: FAILURE, outputTail: 'FAIL', sessionId: 'ses-gone' } };
      if (config.continueFrom) return { result: { ok: false, exitCode: 1, failure: FAILURE, resumeRefused: 'No conversation found with session ID: ses-gone' } };
      return { result: { text: 'done', sessionId: 'ses-new' } };
    });
    // max_attempts 2: the refused resume did not count, so the fresh attempt still ran and passed.
    expect(status).toBe('completed');
    expect(calls.map((c) => c.continueFrom?.sessionId)).toEqual([undefined, 'ses-gone', undefined]);
    expect(calls[2]!.prompt).toBe(`do a\n\n${failureFeedback(1, FAILURE, 'FAIL')}`);
    expect(events).toMatchObject([
      { type: 'session_continued', attempt: 2, sessionId: 'ses-gone' },
      { type: 'session_fresh', attempt: 3, reason: 'attempt 2 could not resume session ses-gone: No conversation found with session ID: ses-gone' },
    ]);
    expect(record.steps.a!.attempts.map((a) => [a.attempt, a.continuedFrom, a.failure?.class])).toEqual([
      [1, undefined, 'non_zero_exit'],
      [2, 1, 'non_zero_exit'],
      [3, undefined, undefined],
    ]);
  });

  it('a session its CLI did not save (Gemini after a failed request) is never offered: the retry starts fresh, saying why, within max_attempts', async () => {
    const notSaved = 'Gemini CLI kept no message of it (it drops the turn a failed request began)';
    const serverError = { class: 'server_error' as const, message: '[API Error: internal server error]' };
    const { status, calls, events, record } = await execute(stepA(', retry: { max_attempts: 2, base_delay: 1ms }'), (_config, attempt) => ({
      result: { ok: false, exitCode: 244, failure: serverError, outputTail: 'FAIL', sessionId: `ses-${attempt}`, sessionNotSaved: notSaved },
    }));
    expect(status).toBe('failed');
    expect(calls.map((c) => c.continueFrom)).toEqual([undefined, undefined]);
    expect(calls[1]!.prompt).toBe(`do a\n\n${failureFeedback(1, serverError, 'FAIL')}`);
    expect(events).toMatchObject([{ type: 'session_fresh', attempt: 2, reason: `attempt 1's session ses-1 was not saved: ${notSaved}` }]);
    // max_attempts 2 means two attempts: no refused resume in between.
    expect(record.steps.a!.attempts.map((a) => [a.attempt, a.sessionId, a.continuedFrom])).toEqual([
      [1, 'ses-1', undefined],
      [2, 'ses-2', undefined],
    ]);
  });

  it.each(['timeout', 'stalled'] as const)('an attempt stopped by its %s keeps the session its CLI reported, and the retry continues it', async (failureClass) => {
    const stopped = { class: failureClass, message: `the step was stopped (${failureClass})` };
    const { status, calls, events, record } = await execute(stepA(RETRY), (_config, attempt) =>
      attempt === 1
        ? { result: { ok: false, exitCode: null, signal: 'SIGTERM', failure: stopped, outputTail: 'FAIL', sessionId: 'ses-stopped' } }
        : { result: { sessionId: 'ses-stopped' } },
    );
    expect(status).toBe('completed');
    expect(calls[1]!.continueFrom?.sessionId).toBe('ses-stopped');
    expect(calls[1]!.prompt).toBe(failureFeedback(1, stopped, 'FAIL'));
    expect(events).toMatchObject([{ type: 'session_continued', attempt: 2, sessionId: 'ses-stopped', from: 1 }]);
    expect(record.steps.a!.attempts[0]!.sessionId).toBe('ses-stopped');
  });

  it('after a fallback to another adapter the attempt starts fresh with the original prompt, and says so', async () => {
    const { calls, events } = await execute(stepA(', retry: { max_attempts: 1 }'), (config) =>
      config.adapter.name === 'claude' ? { result: { ok: false, failure: { class: 'rate_limited', message: '429' }, sessionId: 'ses-claude' } } : {},
    );
    expect(calls.map((c) => [c.adapter.name, c.prompt, c.continueFrom])).toEqual([
      ['claude', 'do a', undefined],
      ['codex', 'do a', undefined],
    ]);
    expect(events).toMatchObject([{ type: 'session_fresh', attempt: 2, reason: 'attempt 1 ran on adapter claude, this one on codex' }]);
  });

  it('adapt_prompt: false has no feedback to send, so its retry starts fresh with the original prompt', async () => {
    const { calls, events } = await execute(stepA(', retry: { max_attempts: 2, base_delay: 1ms, adapt_prompt: false }'), failsFirst());
    expect(calls.map((c) => [c.prompt, c.continueFrom])).toEqual([
      ['do a', undefined],
      ['do a', undefined],
    ]);
    expect(events).toMatchObject([{ type: 'session_fresh', reason: expect.stringContaining('retry.adapt_prompt is false') }]);
  });

  it('a runner without sessions (a plain HTTP model) retries as before, with no session events', async () => {
    const { calls, events } = await execute(stepA(RETRY), failsFirst(), false);
    expect(calls[1]!.continueFrom).toBeUndefined();
    expect(calls[1]!.prompt).toBe(`do a\n\n${failureFeedback(1, FAILURE, 'FAIL')}`);
    expect(events).toEqual([]);
  });

  it('a command step is re-run as written, never continued', async () => {
    const pipeline = `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - { id: a, exec: { type: command, source: "echo hi" }${RETRY} }\n`;
    const { plan, store } = await plannedRun(pipeline, { manifest: MANIFEST });
    const mock = new MockRunner(failsFirst(), 'process');
    const registry = new AdapterRegistry().register({ type: 'process', continuesSessions: true, run: (c, s, e) => mock.run(c, s, e) });
    const events: RunEvent[] = [];
    const bus = new EventBus();
    bus.subscribe((e) => events.push(e));
    await executeRun({ plan, store, bus, registry, parentEnv: process.env }, { onFailure: 'halt', signal: new AbortController().signal });
    expect(mock.calls.map((c) => [c.prompt, c.continueFrom])).toEqual([
      ['echo hi', undefined],
      ['echo hi', undefined],
    ]);
    expect(events.filter((e) => e.type === 'session_continued' || e.type === 'session_fresh')).toEqual([]);
  });
});
