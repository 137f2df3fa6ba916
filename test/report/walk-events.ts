import { NO_TOKENS } from '../../src/core/models/tokens.js';
import { EVENT_VERSION, type RunEvent } from '../../src/events.js';
import type { Failure } from '../../src/core/errors/failure.js';

export const WALK_RUN = 'walk-20240501-120000-abcd';

/** What a person answered the gate with: HTML, a table pipe, a workflow command, a terminal escape, a backtick and a second line. */
export const HOSTILE_TEXT = 'LGTM <script>alert(1)</script> | ::error::pwned \u001b[2J `x`\n::error::second line';

/** The events of a walk, each stamped a second after the one before. */
export function walkEvents(...parts: Array<Record<string, unknown>>): RunEvent[] {
  const steps = [...new Set(parts.flatMap((p) => ('stepId' in p ? [p.stepId as string] : [])))];
  const created = {
    type: 'run_created',
    pipeline: 'walk',
    pipelineFile: '/p/pipelines/walk.yaml',
    manifestFile: '/p/wave.yaml',
    input: '',
    options: { onFailure: 'halt', timeoutMinutes: 5, keepWorkspaces: false },
    steps: steps.map((id) => ({ id, optional: false, dependencies: [] })),
  };
  return [created, ...parts].map((p, i) => ({ v: EVENT_VERSION, ts: new Date(Date.UTC(2024, 4, 1, 12, 0, i)).toISOString(), runId: WALK_RUN, ...p }) as RunEvent);
}

/** A step's visit with one attempt of a command, passed or failed with `failure`. */
export function attemptVisit(stepId: string, attempt: number, text: string, failure?: Failure): Array<Record<string, unknown>> {
  const end = { stepId, attempt, durationMs: 10, tokens: { ...NO_TOKENS } };
  return [
    { type: 'step_began', stepId },
    { type: 'step_started', stepId, attempt, adapter: 'command', adapterType: 'process', workspace: '/w' },
    { type: 'attempt_finished', ...end, adapter: 'command', passed: !failure, exitCode: failure ? 1 : 0, text, ...(failure ? { failure } : {}) },
    failure ? { type: 'step_failed', ...end, failure, optional: false } : { type: 'step_completed', ...end },
  ];
}

/** A step_failed of a step with no attempt of its own in it (a gate, or a visit the walk refused). */
const stepFailed = (stepId: string, failure: Failure) => ({ type: 'step_failed', stepId, attempt: 0, durationMs: 0, failure, optional: false });

const TEST_FAILED: Failure = { class: 'non_zero_exit', message: 'command exited with code 1' };

/** fix, a failing test, a conditional back to fix, the test passing, an approval gate a person answers with HOSTILE_TEXT, ship. */
export const FIX_LOOP_AND_GATE = walkEvents(
  ...attemptVisit('fix', 1, 'fixing'),
  ...attemptVisit('test', 1, 'run 1', TEST_FAILED),
  { type: 'step_began', stepId: 'check' },
  { type: 'step_routed', stepId: 'check', target: 'fix', outcome: 'failure', requeued: ['fix', 'test', 'check'] },
  ...attemptVisit('fix', 2, 'fixing'),
  ...attemptVisit('test', 2, 'run 2'),
  { type: 'step_began', stepId: 'check' },
  { type: 'step_routed', stepId: 'check', target: 'approve', outcome: 'success', when: 'outcome=success', requeued: [] },
  { type: 'step_completed', stepId: 'check', attempt: 0, durationMs: 1, tokens: { ...NO_TOKENS } },
  { type: 'step_began', stepId: 'approve' },
  { type: 'gate_waiting', stepId: 'approve', gate: 'approval', message: 'Ship it?', choices: [{ key: 'y', label: 'Ship', target: 'ship' }], defaultChoice: 'y', freeform: true },
  { type: 'gate_resolved', stepId: 'approve', by: 'person', key: 'y', label: 'Ship', target: 'ship', text: HOSTILE_TEXT },
  { type: 'step_completed', stepId: 'approve', attempt: 0, durationMs: 1000, tokens: { ...NO_TOKENS } },
  { type: 'step_routed', stepId: 'approve', target: 'ship', outcome: 'success', requeued: [] },
  ...attemptVisit('ship', 1, 'shipped'),
);

/** A test that fails until its visit limit stops the walk, and a gate rejected by a person. */
export const STOPPED_AND_REJECTED = walkEvents(
  ...attemptVisit('test', 1, 'run 1', TEST_FAILED),
  { type: 'step_routed', stepId: 'test', target: 'test', outcome: 'failure', when: 'outcome=failure', requeued: ['test'] },
  ...attemptVisit('test', 2, 'run 2', TEST_FAILED),
  { type: 'step_routed', stepId: 'test', target: 'test', outcome: 'failure', when: 'outcome=failure', requeued: ['test'] },
  stepFailed('test', { class: 'route_stopped', message: 'step `test` reached its limit of 2 visits (max_visits)' }),
  { type: 'step_began', stepId: 'approve' },
  { type: 'gate_waiting', stepId: 'approve', gate: 'approval', choices: [{ key: 'n', label: 'Abort', target: '_fail' }] },
  { type: 'gate_resolved', stepId: 'approve', by: 'person', key: 'n', label: 'Abort', target: '_fail', text: 'not today' },
  stepFailed('approve', { class: 'gate_rejected', message: 'gate `approve` was answered "Abort", which fails the run' }),
  { type: 'step_began', stepId: 'hold' },
  { type: 'gate_waiting', stepId: 'hold', gate: 'approval', message: 'Hold on?' },
);
