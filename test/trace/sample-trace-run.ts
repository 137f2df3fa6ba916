import type { RunEvent } from '../../src/events.js';

export const RUN = 'review-20240501-120000-abcd';
export const CHILD = 'child-20240501-120005-ffff';
export const tokens = { input: 1200, output: 340, cacheRead: 50, cacheWrite: 7 };

let second = 0;
/** An event of `runId` one second after the one before. */
export function at<T extends Omit<RunEvent, 'v' | 'ts' | 'runId'>>(body: T, runId = RUN): RunEvent {
  second++;
  return { v: 1, ts: new Date(Date.UTC(2024, 4, 1, 12, 0, second)).toISOString(), runId, ...body } as unknown as RunEvent;
}

function created(runId: string, pipeline: string, parent?: { parentId: string; parentStepId: string }): RunEvent {
  const options = { onFailure: 'halt', keepWorkspaces: false } as const;
  return at({ type: 'run_created', pipeline, pipelineFile: 'p.yaml', manifestFile: 'wave.yaml', input: '', options, steps: [], ...parent }, runId);
}

/** A run whose `plan` step fails once (a tool call in it), waits, passes on its second attempt, then starts a child run from `fan`. */
export function sampleRun(): RunEvent[] {
  second = 0;
  const started = { adapter: 'claude', adapterType: 'claude', model: 'claude-sonnet-4-5', workspace: '/w' } as const;
  const finished = { adapter: 'claude', persona: 'navigator', model: 'claude-sonnet-4-5', exitCode: 0, durationMs: 1000, tokens, costUsd: 0.01, text: 'secret answer' } as const;
  return [
    created(RUN, 'review'),
    at({ type: 'run_started', pipeline: 'review', steps: ['plan', 'fan'], resumed: false }),
    at({ type: 'step_began', stepId: 'plan' }),
    at({ type: 'step_started', stepId: 'plan', attempt: 1, ...started }),
    at({ type: 'step_event', stepId: 'plan', attempt: 1, event: { kind: 'system', sessionId: 'sess-1', model: 'claude-sonnet-4-5-20250929' } }),
    at({ type: 'step_event', stepId: 'plan', attempt: 1, event: { kind: 'tool_use', id: 'toolu_1', name: 'Bash', target: 'cat notes.txt' } }),
    at({ type: 'step_event', stepId: 'plan', attempt: 1, event: { kind: 'tool_result', id: 'toolu_1', isError: false, content: 'notes' } }),
    at({ type: 'egress', stepId: 'plan', attempt: 1, host: 'evil.example', port: 443, allowed: false, via: 'connect', reason: 'not in the allowlist' }),
    at({ type: 'attempt_finished', stepId: 'plan', attempt: 1, passed: false, ...finished, failure: { class: 'contract_failed', message: 'no plan.json' } }),
    at({ type: 'contract_checked', stepId: 'plan', attempt: 1, contract: 'json_schema', passed: false, action: 'retry', errors: ['missing'] }),
    at({ type: 'step_retrying', stepId: 'plan', attempt: 1, delayMs: 2000, failure: { class: 'contract_failed', message: 'no plan.json' } }),
    at({ type: 'step_started', stepId: 'plan', attempt: 2, ...started }),
    at({ type: 'attempt_finished', stepId: 'plan', attempt: 2, passed: true, ...finished, sessionId: 'sess-1' }),
    at({ type: 'step_completed', stepId: 'plan', attempt: 2, durationMs: 5000, tokens }),
    at({ type: 'step_began', stepId: 'fan' }),
    at({ type: 'child_run_started', stepId: 'fan', childRunId: CHILD, pipeline: 'child' }),
    created(CHILD, 'child', { parentId: RUN, parentStepId: 'fan' }),
    at({ type: 'run_started', pipeline: 'child', steps: ['build'], resumed: false }, CHILD),
    at({ type: 'step_began', stepId: 'build' }, CHILD),
    at({ type: 'step_started', stepId: 'build', attempt: 1, adapter: 'shell', adapterType: 'process', workspace: '/w' }, CHILD),
    at(
      {
        type: 'attempt_finished',
        stepId: 'build',
        attempt: 1,
        adapter: 'shell',
        passed: true,
        exitCode: 0,
        durationMs: 1,
        tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        text: 'ok',
      },
      CHILD,
    ),
    at({ type: 'step_completed', stepId: 'build', attempt: 1, durationMs: 1, tokens }, CHILD),
    at({ type: 'run_finished', status: 'completed', durationMs: 1, tokens }, CHILD),
    at({ type: 'child_run_finished', stepId: 'fan', childRunId: CHILD, status: 'completed', tokens }),
    at({ type: 'step_completed', stepId: 'fan', attempt: 1, durationMs: 1, tokens }),
    at({ type: 'run_finished', status: 'completed', durationMs: 9000, tokens, costUsd: 0.02 }),
  ];
}
