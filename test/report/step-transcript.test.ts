import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/adapters/types.js';
import type { RunEvent } from '../../src/events.js';
import { formatClock } from '../../src/report/format.js';
import { renderStepTranscript } from '../../src/report/step-transcript.js';
import { parseEventLines } from '../../src/state/events-file.js';

/** The events of a real Claude Code run: a Bash call that fails, a contract that fails twice, a continued session. */
const RECORDED = parseEventLines(readFileSync(new URL('./recorded/claude-contract-retry.events.ndjson', import.meta.url), 'utf8'));
const TS = '2024-05-01T12:00:00.000Z';
const NO_TOKENS = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

const started = (attempt: number): RunEvent => ({ v: 1, ts: TS, runId: 'r', type: 'step_started', stepId: 'a', attempt, adapter: 'gemini', workspace: '/w' });
const said = (event: Exclude<StreamEvent, { kind: 'output' }>, attempt = 1, stepId = 'a'): RunEvent => ({ v: 1, ts: TS, runId: 'r', type: 'step_event', stepId, attempt, event });
const finished = (attempt: number, passed = true): RunEvent => ({
  v: 1,
  ts: TS,
  runId: 'r',
  type: 'attempt_finished',
  stepId: 'a',
  attempt,
  adapter: 'gemini',
  passed,
  exitCode: passed ? 0 : 1,
  durationMs: 1200,
  tokens: NO_TOKENS,
  text: '',
  ...(passed ? {} : { failure: { class: 'non_zero_exit' as const, message: 'exit code 1\nstderr: boom', hint: 'Read the log.' } }),
});

describe('renderStepTranscript', () => {
  it('renders a recorded Claude run: attempts, the failed tool call, the answer, contracts, the retry and each attempt’s tokens', () => {
    const clock = formatClock('2026-11-23T11:05:25.770Z');
    const clock2 = formatClock('2026-11-23T11:05:26.708Z');
    expect(renderStepTranscript(RECORDED, 'work')).toEqual([
      `── attempt 1 · agent (claude-test) · started ${clock}`,
      '  tool  Bash echo oops >&2; exit 3',
      '    ✗ Exit code 3',
      '      oops',
      '  assistant  The command failed: Exit code 3',
      '    oops',
      '  contract 1:non_empty_file missing.md failed (retry)',
      '      missing.md does not exist',
      '── attempt 1 failed in 0.9s · 5.2k in / 50 out (cache 36) · $0.0217',
      '  contract_failed: contract 1:non_empty_file missing.md failed',
      '  ↻ retrying in 0.0s',
      `── attempt 2 · agent (claude-test) · started ${clock2}`,
      '  continuing session 3eb03960-446d-4686-8872-7269612d2d99 of attempt 1',
      '  tool  Bash echo oops >&2; exit 3',
      '    ✗ Exit code 3',
      '      oops',
      '  assistant  The command failed: Exit code 3',
      '    oops',
      '  contract 1:non_empty_file missing.md failed (fail)',
      '      missing.md does not exist',
      '── attempt 2 failed in 0.9s · 5.5k in / 50 out (cache 36) · $0.0447',
      '  contract_failed: contract 1:non_empty_file missing.md failed: missing.md does not exist',
      '    hint: The step was re-run 1 time(s) with these errors; raise max_retries or fix the prompt.',
    ]);
  });

  it('renders one attempt when asked, and nothing of other steps', () => {
    const second = renderStepTranscript(RECORDED, 'work', { attempt: 2 });
    expect(second[0]).toMatch(/^── attempt 2 /);
    expect(second.filter((line) => line.startsWith('── attempt 1'))).toEqual([]);
    expect(renderStepTranscript(RECORDED, 'other')).toEqual([]);
  });

  it('joins a message streamed in pieces, names the call a late result answers, cuts long tool output, and shows retries, errors and a different answer', () => {
    const events = [
      started(1),
      said({ kind: 'text', text: 'Let me ' }),
      said({ kind: 'thinking', text: 'private' }),
      said({ kind: 'text', text: 'look.' }),
      said({ kind: 'text', text: 'x' }, 1, 'b'),
      said({ kind: 'tool_use', id: 't1', name: 'Read', target: 'a.ts' }),
      said({ kind: 'tool_use', id: 't2', name: 'Grep', target: 'TODO' }),
      said({ kind: 'tool_result', id: 't1', isError: false, content: Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n') }),
      said({ kind: 'tool_result', id: 't2', isError: false, content: '' }),
      said({ kind: 'retry', status: 529, message: 'overloaded' }),
      said({ kind: 'error', message: 'API Error: 500' }),
      said({ kind: 'system', subtype: 'permission_denied', message: 'Bash: rm -rf /' }),
      said({ kind: 'text', text: 'Done.' }),
      said({ kind: 'result', ok: true, text: 'Done.' }),
      finished(1, false),
      { v: 1, ts: TS, runId: 'r', type: 'step_retrying', stepId: 'a', attempt: 1, delayMs: 2000, failure: { class: 'non_zero_exit', message: 'exit code 1' } },
      started(2),
      said({ kind: 'text', text: 'Second try.' }, 2),
      said({ kind: 'result', ok: true, text: 'A different final answer.' }, 2),
      { v: 1, ts: TS, runId: 'r', type: 'egress', stepId: 'a', attempt: 2, host: 'example.com', port: 443, allowed: true, via: 'connect' },
      { v: 1, ts: TS, runId: 'r', type: 'egress', stepId: 'a', attempt: 2, host: 'evil.test', port: 443, allowed: false, via: 'connect' },
      { v: 1, ts: TS, runId: 'r', type: 'file_change', stepId: 'a', attempt: 2, path: 'a.ts', change: 'modified', added: 2, removed: 1 },
      finished(2),
      { v: 1, ts: TS, runId: 'r', type: 'step_completed', stepId: 'a', attempt: 2, durationMs: 3000, tokens: NO_TOKENS },
    ] satisfies RunEvent[];
    expect(renderStepTranscript(events, 'a')).toEqual([
      `── attempt 1 · gemini · started ${formatClock(TS)}`,
      '  assistant  Let me look.',
      '  tool  Read a.ts',
      '  tool  Grep TODO',
      '    → (Read a.ts) line 1',
      ...[2, 3, 4, 5, 6, 7, 8].map((n) => `      line ${n}`),
      '      … 4 more lines',
      '    → (Grep TODO) (no output)',
      '  model request retried (HTTP 529): overloaded',
      '  error  API Error: 500',
      '  error  permission denied: Bash: rm -rf /',
      '  assistant  Done.',
      '── attempt 1 failed in 1.2s',
      '  non_zero_exit: exit code 1',
      '    stderr: boom',
      '    hint: Read the log.',
      '  ↻ retrying in 2.0s',
      `── attempt 2 · gemini · started ${formatClock(TS)}`,
      '  assistant  Second try.',
      '  answer  A different final answer.',
      '  egress denied: evil.test:443',
      '  file M a.ts  +2 -1',
      '── attempt 2 passed in 1.2s',
    ]);
  });

  it('says why a step failed before any attempt ended', () => {
    const events: RunEvent[] = [
      {
        v: 1,
        ts: TS,
        runId: 'r',
        type: 'step_failed',
        stepId: 'a',
        attempt: 1,
        durationMs: 5,
        failure: { class: 'workspace_failed', message: 'not a git repository' },
        optional: false,
      },
    ];
    expect(renderStepTranscript(events, 'a')).toEqual(['  failed on attempt 1 after 0.0s: workspace_failed: not a git repository']);
  });

  it('live: holds back a message still streaming in, so what was printed never changes', () => {
    const events = [
      started(1),
      said({ kind: 'tool_use', id: 't', name: 'Bash', target: 'ls' }),
      said({ kind: 'tool_result', id: 't', isError: false, content: 'a.ts' }),
      said({ kind: 'text', text: 'Half a sen' }),
    ];
    const early = renderStepTranscript(events, 'a', { live: true });
    expect(early.at(-1)).toBe('    → a.ts');
    const later = renderStepTranscript([...events, said({ kind: 'text', text: 'tence.' }), finished(1)], 'a', { live: true });
    expect(later.slice(0, early.length)).toEqual(early);
    expect(later.slice(early.length)).toEqual(['  assistant  Half a sentence.', '── attempt 1 passed in 1.2s']);
    // Once the run is over, what is left is shown.
    expect(renderStepTranscript(events, 'a').at(-1)).toBe('  assistant  Half a sen');
  });

  it('colours only when asked', () => {
    expect(renderStepTranscript(RECORDED, 'work').join('\n')).not.toContain('\x1b[');
    expect(renderStepTranscript(RECORDED, 'work', { color: true }).join('\n')).toContain('\x1b[31m    ✗\x1b[0m');
  });
});
