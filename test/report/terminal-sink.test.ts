import stringWidth from 'string-width';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import { createTerminalSink } from '../../src/report/terminal/terminal.js';
import { CURSOR_UP, CollectingStream, SCRIPTED_EVENTS, STEP_IDS, scriptedRecord, terminalFrames } from './scripted-run.js';
import { sampleStep } from '../state/sample-run.js';
import { ESCAPES, RAW_CONTROL } from '../support/attacks.mjs';

const SGR = /\x1b\[\d+m/;

describe('terminal sink', () => {
  let clock = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = Date.parse('2024-05-01T12:00:00.000Z');
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Feeds events at their own time, letting the frame timer run between them. */
  function play(sink: { handle(e: RunEvent): void }, events: RunEvent[]): void {
    for (const event of events) {
      const at = Date.parse(event.ts);
      if (at > clock) {
        const gap = at - clock;
        clock = at;
        vi.advanceTimersByTime(gap);
      }
      sink.handle(event);
    }
    clock += 100;
    vi.advanceTimersByTime(100);
  }

  it('redraws in place with cursor movement and ends on a frame with every step status, tokens and cost', () => {
    const out = new CollectingStream({ tty: true, columns: 120 });
    const sink = createTerminalSink({ out, stepIds: STEP_IDS, color: false, now: () => clock });
    play(sink, SCRIPTED_EVENTS);
    sink.close();
    const written = terminalFrames(out.text);
    expect(written.length).toBeGreaterThan(3);
    expect(out.text.startsWith('\r\x1b[')).toBe(false); // the first frame is drawn, not redrawn
    const ups = [...out.text.matchAll(CURSOR_UP)].map((m) => Number(m[1]));
    expect(ups.length).toBe(written.length - 1);
    expect(new Set(ups)).toEqual(new Set([5])); // four steps and the footer
    expect(written.at(-1)).toEqual([
      '✓ split      1.2s',
      '✓ count-a    4.6s  12.3k in / 678 out  $0.0123',
      '✗ count-b    2.0s  attempt 2  non_zero_exit: exit code 2',
      '- merge            dependency count-b failed',
      '  2/4 steps completed · 7.1s · 12.3k in / 678 out · $0.0123',
    ]);
    expect(out.text).not.toMatch(SGR);
  });

  it('shows the latest tool activity and the tokens reported so far while a step runs', () => {
    const out = new CollectingStream({ tty: true, columns: 120 });
    const sink = createTerminalSink({ out, stepIds: STEP_IDS, color: false, now: () => clock });
    play(sink, SCRIPTED_EVENTS.slice(0, 10)); // up to count-a's running tokens
    const frame = terminalFrames(out.text).at(-1)!;
    expect(frame[1]).toBe('▸ count-a    1.2s  1.0k in / 200 out  $0.0050  Bash wc -w part-1.txt');
    expect(frame[2]).toMatch(/^▸ count-b {4}1\.2s$/);
    expect(frame[3]).toBe('· merge');
    sink.close();
  });

  it('shows the last line a running command printed, its escapes as text', () => {
    const out = new CollectingStream({ tty: true, columns: 120 });
    const sink = createTerminalSink({ out, stepIds: STEP_IDS, color: false, now: () => clock });
    const started = SCRIPTED_EVENTS.slice(0, 10);
    const ts = started.at(-1)!.ts;
    play(sink, [...started, { v: 1, ts, runId: started[0]!.runId, type: 'step_output', stepId: 'count-b', attempt: 1, line: 'compiling 3 of 7 \x1b[2J' }]);
    const frame = terminalFrames(out.text).at(-1)!;
    expect(frame[2]).toMatch(/^▸ count-b {4}1\.\ds  compiling 3 of 7 \\x1b\[2J$/);
    sink.close();
  });

  it('ticks the elapsed time of running steps at most ten times a second', () => {
    const out = new CollectingStream({ tty: true, columns: 120 });
    const sink = createTerminalSink({ out, stepIds: STEP_IDS, color: false, now: () => clock });
    play(sink, SCRIPTED_EVENTS.slice(0, 2)); // split running
    const before = terminalFrames(out.text).length;
    for (let i = 0; i < 20; i++) {
      clock += 50;
      vi.advanceTimersByTime(50);
    }
    const during = terminalFrames(out.text).slice(before);
    expect(during.length).toBeGreaterThanOrEqual(5);
    expect(during.length).toBeLessThanOrEqual(10);
    expect(during.at(-1)![0]).toBe('▸ split      1.1s');
    sink.close();
  });

  it('colours the marks on a colour terminal', () => {
    const out = new CollectingStream({ tty: true, columns: 120 });
    const sink = createTerminalSink({ out, stepIds: STEP_IDS, color: true, now: () => clock });
    play(sink, SCRIPTED_EVENTS);
    sink.close();
    expect(out.text).toContain('\x1b[32m✓\x1b[0m');
    expect(out.text).toContain('\x1b[31m✗\x1b[0m');
  });

  it('cuts lines to the terminal width so the cursor arithmetic holds', () => {
    const out = new CollectingStream({ tty: true, columns: 30 });
    const sink = createTerminalSink({ out, stepIds: STEP_IDS, color: true, now: () => clock });
    play(sink, SCRIPTED_EVENTS);
    sink.close();
    for (const frame of terminalFrames(out.text)) {
      for (const line of frame) expect(line.replace(/\x1b\[\d+m/g, '').length).toBeLessThanOrEqual(29);
    }
  });

  it('counts wide characters by the columns they take when it cuts a line', () => {
    const out = new CollectingStream({ tty: true, columns: 30 });
    const sink = createTerminalSink({ out, stepIds: ['scan'], color: false, now: () => clock });
    const base = { v: SCRIPTED_EVENTS[0]!.v, runId: SCRIPTED_EVENTS[0]!.runId, ts: '2024-05-01T12:00:00.100Z' };
    play(sink, [
      { ...base, type: 'step_started', stepId: 'scan', attempt: 1, adapter: 'claude', workspace: '/w/scan' },
      { ...base, type: 'step_event', stepId: 'scan', attempt: 1, event: { kind: 'tool_use', name: 'Read', target: '数据库连接设置说明书.md' } },
    ]);
    sink.close();
    const last = terminalFrames(out.text).at(-1)!;
    // Of 29 columns the mark, id and time take 14 and "  Read " 7: three CJK characters (6) and the ellipsis fill the rest but one.
    expect(last).toEqual(['▸ scan    0.1s  Read 数据库…', '  0/1 steps completed']);
    for (const frame of terminalFrames(out.text)) {
      for (const line of frame) expect(stringWidth(line)).toBeLessThanOrEqual(29);
    }
  });

  it('shows the escapes in a tool’s target, a failure and a skip reason as text, never as escapes, and the summary too', () => {
    const out = new CollectingStream({ tty: true, columns: 400 });
    const sink = createTerminalSink({ out, stepIds: ['scan', 'next'], color: false, now: () => clock });
    const base = { v: SCRIPTED_EVENTS[0]!.v, runId: SCRIPTED_EVENTS[0]!.runId, ts: '2024-05-01T12:00:00.100Z' };
    const escapes = ESCAPES.join('');
    play(sink, [
      { ...base, type: 'step_started', stepId: 'scan', attempt: 1, adapter: 'claude', workspace: '/w/scan' },
      { ...base, type: 'step_event', stepId: 'scan', attempt: 1, event: { kind: 'tool_use', name: 'Bash', target: `echo ${escapes}` } },
    ]);
    const running = terminalFrames(out.text).at(-1)!;
    play(sink, [
      { ...base, type: 'step_failed', stepId: 'scan', attempt: 1, durationMs: 5, optional: false, failure: { class: 'non_zero_exit', message: `exit 1: ${escapes}` } },
      { ...base, type: 'step_skipped', stepId: 'next', reason: `upstream said ${escapes}` },
    ]);
    sink.close();
    sink.summarize(
      { ...scriptedRecord(), steps: { scan: sampleStep('scan', { status: 'failed', result: { kind: 'output', lines: [escapes], total: 1, cut: false } }) } },
      '/runs/x',
    );
    // Wave's own cursor movements and line clears are the only escapes written.
    const written = out.text.replace(CURSOR_UP, '').replace(/\x1b\[2K/g, '');
    expect(written.replace(/\n/g, '')).not.toMatch(RAW_CONTROL);
    const visible = '\\x1b[2J\\x1b[H\\x1b]0;PWNED-TITLE\\x07\\x1b[31m\\rOVERWRITE\\x9b2J\\u2028';
    expect(running[0]).toMatch(/^▸ scan {4}\d\.\ds {2}Bash echo /);
    expect(running[0]!.endsWith(`Bash echo ${visible}`)).toBe(true);
    const [scan, next] = terminalFrames(out.text).at(-1)!;
    expect(scan!.endsWith(`non_zero_exit: exit 1: ${visible}`)).toBe(true);
    expect(next).toBe(`- next          upstream said ${visible}`);
    expect(written).toContain(`│ ${visible}`);
  });

  it('stops drawing once closed', () => {
    const out = new CollectingStream({ tty: true, columns: 120 });
    const sink = createTerminalSink({ out, stepIds: STEP_IDS, color: false, now: () => clock });
    play(sink, SCRIPTED_EVENTS.slice(0, 2));
    sink.close();
    const length = out.text.length;
    sink.handle(SCRIPTED_EVENTS[3]!);
    clock += 5000;
    vi.advanceTimersByTime(5000);
    sink.close();
    expect(out.text.length).toBe(length);
  });
});
