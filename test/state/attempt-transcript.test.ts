import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/adapters/types.js';
import type { RunEvent } from '../../src/events.js';
import { attemptTranscript } from '../../src/state/thread/attempt-transcript.js';

const stepEvent = (stepId: string, attempt: number, event: Exclude<StreamEvent, { kind: 'output' }>): RunEvent => ({
  v: 1,
  ts: '2024-05-01T12:00:00.000Z',
  runId: 'r',
  type: 'step_event',
  stepId,
  attempt,
  event,
});

describe('attemptTranscript', () => {
  it("keeps the agent's messages, its tool calls with their targets, failed tool calls and retries, in order", () => {
    const events = [
      stepEvent('a', 1, { kind: 'system', subtype: 'init', sessionId: 's' }),
      stepEvent('a', 1, { kind: 'text', text: '  I will read the file.\n' }),
      stepEvent('a', 1, { kind: 'thinking', text: 'private reasoning' }),
      stepEvent('a', 1, { kind: 'tool_use', id: 't1', name: 'Read', target: 'src/a.ts' }),
      stepEvent('a', 1, { kind: 'tool_result', id: 't1', isError: false, content: 'export const SECRET_FILE_BODY = 1;' }),
      stepEvent('a', 1, { kind: 'tool_use', id: 't2', name: 'Bash' }),
      stepEvent('a', 1, { kind: 'tool_result', id: 't2', isError: true, content: '\nexit code 3: make: *** no rule\n' }),
      stepEvent('a', 1, { kind: 'retry', status: 529, message: 'overloaded' }),
      stepEvent('a', 1, { kind: 'retry' }),
      stepEvent('a', 1, { kind: 'usage', tokens: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } }),
      stepEvent('a', 1, { kind: 'text', text: '   ' }),
      stepEvent('a', 1, { kind: 'result', ok: true, text: 'the result text' }),
      stepEvent('a', 1, { kind: 'text', text: 'Done.' }),
    ];
    expect(attemptTranscript(events, 'a', 1)).toBe(
      [
        'assistant: I will read the file.',
        'tool call: Read src/a.ts',
        'tool call: Bash',
        'tool error: exit code 3: make: *** no rule',
        'model request retried (HTTP 529): overloaded',
        'model request retried',
        'assistant: Done.',
      ].join('\n'),
    );
  });

  it('joins a message a CLI streamed in pieces into one', () => {
    const events = [
      stepEvent('a', 1, { kind: 'text', text: 'The answer ' }),
      stepEvent('a', 1, { kind: 'text', text: 'is 42.' }),
      stepEvent('a', 1, { kind: 'tool_use', name: 'Read' }),
      stepEvent('a', 1, { kind: 'text', text: 'Done.' }),
    ];
    expect(attemptTranscript(events, 'a', 1)).toBe(['assistant: The answer is 42.', 'tool call: Read', 'assistant: Done.'].join('\n'));
  });

  it('reads only the given step and attempt', () => {
    const events = [
      stepEvent('a', 1, { kind: 'text', text: 'a first' }),
      stepEvent('a', 2, { kind: 'text', text: 'a second' }),
      stepEvent('b', 1, { kind: 'text', text: 'b first' }),
      {
        v: 1,
        ts: '2024-05-01T12:00:00.000Z',
        runId: 'r',
        type: 'step_completed',
        stepId: 'a',
        attempt: 2,
        durationMs: 1,
        tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      } as RunEvent,
    ];
    expect(attemptTranscript(events, 'a', 2)).toBe('assistant: a second');
    expect(attemptTranscript(events, 'b', 1)).toBe('assistant: b first');
    expect(attemptTranscript(events, 'c', 1)).toBe('');
  });

  it("keeps the first 500 characters of a failed tool call's output", () => {
    const long = `${'e'.repeat(500)}TAIL`;
    const text = attemptTranscript([stepEvent('a', 1, { kind: 'tool_result', isError: true, content: long })], 'a', 1);
    expect(text).toBe(`tool error: ${'e'.repeat(500)}`);
    expect(attemptTranscript([stepEvent('a', 1, { kind: 'tool_result', isError: true })], 'a', 1)).toBe('tool error: ');
  });
});
