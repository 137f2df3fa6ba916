import { afterEach, describe, expect, it, vi } from 'vitest';
import { Redactor } from '../../src/redact.js';
import { shouldColor } from '../../src/report/color.js';
import { createSink } from '../../src/report/sink.js';
import { CollectingStream, RUN_ID, SCRIPTED_EVENTS, STEP_IDS, scriptedRecord } from './scripted-run.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('createSink', () => {
  it('auto is plain text when the stream is not a terminal', async () => {
    const out = new CollectingStream();
    const sink = await createSink('auto', { out, stepIds: STEP_IDS });
    for (const event of SCRIPTED_EVENTS) sink.handle(event);
    sink.close();
    expect(out.text).toContain(`run ${RUN_ID} started: hello, 4 steps`);
    expect(out.text).not.toContain('\x1b');
  });

  it('auto on a terminal with NO_COLOR redraws in place without colour codes', async () => {
    vi.stubEnv('NO_COLOR', '1');
    vi.stubEnv('TERM', 'xterm-256color');
    const out = new CollectingStream({ tty: true, columns: 100 });
    const sink = await createSink('auto', { out, stepIds: STEP_IDS });
    for (const event of SCRIPTED_EVENTS) sink.handle(event);
    sink.close();
    sink.summarize(scriptedRecord(), '/runs/x');
    expect(out.text).toContain('\x1b[2K');
    expect(out.text).toContain('✗ count-b');
    expect(out.text).not.toMatch(/\x1b\[\d+m/);
  });

  it('json, quiet and text pick their sinks', async () => {
    const json = new CollectingStream({ tty: true });
    const quiet = new CollectingStream({ tty: true });
    const text = new CollectingStream({ tty: true });
    for (const [mode, out] of [
      ['json', json],
      ['quiet', quiet],
      ['text', text],
    ] as const) {
      const sink = await createSink(mode, { out, stepIds: STEP_IDS, color: false });
      for (const event of SCRIPTED_EVENTS) sink.handle(event);
      sink.close();
    }
    expect(JSON.parse(json.text.split('\n')[0]!)).toEqual(SCRIPTED_EVENTS[0]);
    expect(quiet.text).toBe('');
    expect(text.text.split('\n')[0]).toMatch(/^\d\d:\d\d:\d\d run /);
  });

  it('redacts secrets in printed events when given a redactor', async () => {
    const secret = 'p4ssw0rd-of-the-day';
    const out = new CollectingStream();
    const sink = await createSink('json', { out, stepIds: ['a'], redactor: new Redactor([secret]) });
    sink.handle({
      v: 1,
      ts: '2024-05-01T12:00:00.000Z',
      runId: 'r',
      type: 'step_event',
      stepId: 'a',
      attempt: 1,
      event: { kind: 'tool_use', name: 'Bash', target: `echo ${secret}` },
    });
    expect(out.text).not.toContain(secret);
    expect(JSON.parse(out.text).event.target).toBe('echo [REDACTED]');
  });
});

describe('shouldColor', () => {
  it('is on for a TTY only, and off with NO_COLOR or TERM=dumb', async () => {
    const tty = new CollectingStream({ tty: true });
    expect(shouldColor(tty, { TERM: 'xterm' })).toBe(true);
    expect(shouldColor(tty, { TERM: 'xterm', NO_COLOR: '1' })).toBe(false);
    expect(shouldColor(tty, { TERM: 'xterm', NO_COLOR: '' })).toBe(true);
    expect(shouldColor(tty, { TERM: 'dumb' })).toBe(false);
    expect(shouldColor(new CollectingStream(), { TERM: 'xterm' })).toBe(false);
  });
});
