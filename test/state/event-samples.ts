import type { RunEvent } from '../../src/events.js';

const base = { v: 1, ts: '2024-05-01T12:00:00.000Z', runId: 'hello-20240501-120000-abcd' } as const;
const tokens = { input: 1200, output: 340, cacheRead: 0, cacheWrite: 0 };
const failure = { class: 'non_zero_exit', message: 'exit code 1', hint: 'see stderr' } as const;

/** One event of every type (and every stream event kind), typed as RunEvent so the compiler checks them. */
export const EVERY_EVENT: RunEvent[] = [
  { ...base, type: 'run_started', pipeline: 'hello', steps: ['split', 'count'], resumed: false },
  { ...base, type: 'step_started', stepId: 'split', attempt: 1, adapter: 'shell', model: 'm', workspace: '/w/split' },
  { ...base, type: 'step_event', stepId: 'split', attempt: 1, event: { kind: 'system', subtype: 'init', sessionId: 's', model: 'm' } },
  { ...base, type: 'step_event', stepId: 'split', attempt: 1, event: { kind: 'text', text: 'hello' } },
  { ...base, type: 'step_event', stepId: 'split', attempt: 1, event: { kind: 'thinking', text: 'hmm' } },
  { ...base, type: 'step_event', stepId: 'split', attempt: 1, event: { kind: 'tool_use', id: 't1', name: 'Bash', target: 'ls' } },
  { ...base, type: 'step_event', stepId: 'split', attempt: 1, event: { kind: 'tool_result', id: 't1', isError: false, content: 'a' } },
  { ...base, type: 'step_event', stepId: 'split', attempt: 1, event: { kind: 'retry', attempt: 2, delayMs: 500, status: 529 } },
  { ...base, type: 'step_event', stepId: 'split', attempt: 1, event: { kind: 'error', message: 'boom', failureClass: 'server_error' } },
  { ...base, type: 'step_event', stepId: 'split', attempt: 1, event: { kind: 'usage', tokens, costUsd: 0.01 } },
  { ...base, type: 'step_event', stepId: 'split', attempt: 1, event: { kind: 'result', ok: true, text: 'done', subtype: 'success', tokens, costUsd: 0.02 } },
  { ...base, type: 'step_retrying', stepId: 'count', attempt: 1, delayMs: 2000, failure },
  { ...base, type: 'step_fallback', stepId: 'count', from: 'claude', to: 'opencode', failure: { class: 'rate_limited', message: '429', retryAfterMs: 30000 } },
  { ...base, type: 'artifact_saved', stepId: 'split', name: 'parts', path: 'artifacts/split/parts.txt', bytes: 1234 },
  { ...base, type: 'file_change', stepId: 'split', attempt: 1, path: 'src/a.ts', change: 'modified', added: 3, removed: 1 },
  { ...base, type: 'file_change', stepId: 'split', attempt: 1, path: 'logo.png', change: 'added', binary: true },
  { ...base, type: 'contract_checked', stepId: 'split', attempt: 1, contract: 'json_schema', passed: false, action: 'retry', errors: ['/a must be string'] },
  { ...base, type: 'step_completed', stepId: 'split', attempt: 1, durationMs: 1234, tokens, costUsd: 0.0123 },
  { ...base, type: 'step_failed', stepId: 'count', attempt: 2, durationMs: 3400, failure, optional: false },
  { ...base, type: 'step_skipped', stepId: 'merge', reason: 'dependency count failed' },
  { ...base, type: 'step_cancelled', stepId: 'merge' },
  { ...base, type: 'step_tokens', stepId: 'split', attempt: 1, tokens, costUsd: 0.01 },
  { ...base, type: 'run_finished', status: 'failed', durationMs: 5000, tokens, costUsd: 0.0123 },
];
