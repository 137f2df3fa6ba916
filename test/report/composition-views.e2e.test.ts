import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventSchemas } from '../../src/event-schema.js';
import type { RunEvent } from '../../src/events.js';
import { createTerminalSink } from '../../src/report/terminal/terminal.js';
import { createTextSink } from '../../src/report/text.js';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { CollectingStream, terminalFrames } from './scripted-run.js';

const { RunEventSchema } = eventSchemas();

// What a person watching a composition run sees: a real run of child pipelines of command steps, in each output mode.

/** Two steps; lint fails when the input is `bad`. */
const REVIEW = commandPipeline('review', [
  ['lint', [], 'sleep 0.3; test {{ input }} != bad'],
  ['test', ['lint'], 'sleep 0.2; echo tested'],
]);

/** A child of its own that runs review as a grandchild. */
const INNER = `kind: WavePipeline
metadata: { name: inner }
steps:
  - id: one
    exec: { type: command, source: "echo one" }
  - id: nested
    dependencies: [one]
    pipeline: review
    input: "x"
`;

/** Four items two at a time, the third failing (and tolerated), then a child with a grandchild. */
const OUTER = `kind: WavePipeline
metadata: { name: outer }
steps:
  - id: prep
    exec: { type: command, source: "echo prep" }
  - id: fan
    dependencies: [prep]
    iterate: { over: '["a","b","bad","c"]', mode: parallel, max_concurrent: 2, on_failure: continue }
    pipeline: review
    input: "{{ item }}"
  - id: sub
    dependencies: [fan]
    pipeline: inner
`;

const STEP_IDS = ['prep', 'fan', 'sub'];

/** The events of `wave run outer --json`, each checked against the event schema. */
let events: RunEvent[];
let project: string;

beforeAll(async () => {
  project = makeProject({ 'pipelines/review.yaml': REVIEW, 'pipelines/inner.yaml': INNER, 'pipelines/outer.yaml': OUTER });
  const run = await runWave(['run', 'outer', '--json'], { cwd: project });
  expect(run.code, run.stderr).toBe(0);
  events = run.stdout
    .trim()
    .split('\n')
    .map((line) => RunEventSchema.parse(JSON.parse(line)));
}, 60_000);

afterEach(() => {
  vi.useRealTimers();
});

/** The frames the live view draws of the events, each played at its own time on a screen of `rows`. */
function liveFrames(rows?: number): string[][] {
  vi.useFakeTimers();
  let clock = Date.parse(events[0]!.ts);
  const out = new CollectingStream({ tty: true, columns: 120, rows });
  const sink = createTerminalSink({ out, stepIds: STEP_IDS, color: false, now: () => clock });
  for (const event of events) {
    const at = Date.parse(event.ts);
    if (at > clock) {
      vi.advanceTimersByTime(at - clock);
      clock = at;
    }
    sink.handle(event);
  }
  sink.close();
  return terminalFrames(out.text);
}

describe('a composition run as a person watches it', () => {
  it('--json: every event of the run and of its child and grandchild runs, each with its own runId', () => {
    const runIds = new Set(events.map((event) => event.runId));
    const started = events.filter((event) => event.type === 'child_run_started');
    // Four items, the inner child and its review grandchild.
    expect(started).toHaveLength(6);
    expect(runIds.size).toBe(7);
    for (const child of started) expect(events.some((event) => event.runId === child.childRunId && event.type === 'run_finished')).toBe(true);
    expect(events.find((event) => event.type === 'iterate_items')).toMatchObject({ stepId: 'fan', items: 4, reused: 0 });
  });

  it('the live view: child steps indented under their step, grandchildren under them, and the items counted as they finish', () => {
    const frames = liveFrames().map((frame) => frame.join('\n'));
    const fan = frames.filter((frame) => /^▸ fan .*items/m.test(frame));
    expect(fan.some((frame) => /^▸ fan +\d+\.\ds {2}0\/4 items$/m.test(frame))).toBe(true);
    expect(frames.some((frame) => /^ {2}↳ item 1 \(review\)\n {4}[▸✓] lint +\d+\.\ds/m.test(frame))).toBe(true);
    expect(frames.some((frame) => /^▸ fan .* 3\/4 items, 1 failed$/m.test(frame))).toBe(true);
    // The failed item stays in sight with its failed step; the completed ones fold into the count.
    expect(frames.some((frame) => /^ {2}↳ item 3 \(review\)\n {4}✗ lint .*non_zero_exit/m.test(frame))).toBe(true);
    const last = frames.at(-1)!.split('\n');
    expect(last[1]).toMatch(/^✓ fan +\d+\.\ds {2}4\/4 items, 1 failed$/);
    expect(last.filter((line) => line.includes('↳ item'))).toEqual(['  ↳ item 3 (review)']);
    // sub's child (inner) under it, and inner's child (review) under its step nested.
    const sub = last.indexOf(last.find((line) => line.startsWith('✓ sub'))!);
    expect(last.slice(sub + 1, sub + 5).map((line) => line.replace(/\d+\.\ds/, 'T'))).toEqual(['  ✓ one       T', '  ✓ nested    T', '    ✓ lint    T', '    ✓ test    T']);
    expect(last.at(-1)).toMatch(/^ {2}3\/3 steps completed · /);
  });

  it('the live view stays shorter than the screen: finished child runs fold away, a child whose steps do not fit takes one line', () => {
    const frames = liveFrames(8);
    for (const frame of frames) expect(frame.length).toBeLessThanOrEqual(7);
    expect(frames.some((frame) => frame.includes('  ↳ item 1 (review): ▸ lint') && frame.includes('  ↳ item 2 (review): ▸ lint'))).toBe(true);
    // Once the run ends, the items that finished are out of the way.
    expect(frames.at(-1)!.some((line) => line.includes('↳'))).toBe(false);
  });

  it('a parallel iterate of many items: the running ones that do not fit are counted in one line', () => {
    const runId = 'wide-20240501-120000-abcd';
    const at = (ms: number) => new Date(Date.parse('2024-05-01T12:00:00Z') + ms).toISOString();
    const base = (ms: number, id = runId) => ({ v: 1 as const, ts: at(ms), runId: id });
    const items = Array.from({ length: 12 }, (_, item) => `review-20240501-120000-${String(item).padStart(4, '0')}`);
    const wide: RunEvent[] = [
      { ...base(0), type: 'run_started', pipeline: 'wide', steps: ['fan'], resumed: false },
      { ...base(0), type: 'step_began', stepId: 'fan' },
      { ...base(1), type: 'iterate_items', stepId: 'fan', items: 12, reused: 0 },
      ...items.flatMap((child, item): RunEvent[] => [
        { ...base(2), type: 'child_run_started', stepId: 'fan', childRunId: child, pipeline: 'review', item },
        { ...base(3, child), type: 'run_started', pipeline: 'review', steps: ['lint', 'test'], resumed: false },
        { ...base(4, child), type: 'step_started', stepId: 'lint', attempt: 1, adapter: 'command', workspace: '/w' },
      ]),
    ];
    const out = new CollectingStream({ tty: true, columns: 80, rows: 10 });
    const sink = createTerminalSink({ out, stepIds: ['fan'], color: false, now: () => Date.parse(at(500)) });
    for (const event of wide) sink.handle(event);
    sink.close();
    const frame = terminalFrames(out.text).at(-1)!;
    expect(frame).toEqual([
      '▸ fan    0.5s  0/12 items',
      '  ↳ item 1 (review): ▸ lint',
      '  ↳ item 2 (review): ▸ lint',
      '  ↳ item 3 (review): ▸ lint',
      '  ↳ item 4 (review): ▸ lint',
      '  ↳ item 5 (review): ▸ lint',
      '  ↳ item 6 (review): ▸ lint',
      '  … 6 more running',
      '  0/1 steps completed · 0.5s',
    ]);
  });

  it('--output text: a child run’s lines say which child they are of, a grandchild’s which chain', async () => {
    const run = await runWave(['run', 'outer', '--output', 'text'], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n').map((line) => line.replace(/^\d\d:\d\d:\d\d /, ''));
    expect(lines).toContain('fan  iterates over 4 items');
    expect(lines).toContain('[review/item 2] test started (attempt 1, command)');
    expect(lines.some((line) => line.startsWith('[review/item 3] lint failed on attempt 1'))).toBe(true);
    expect(lines).toContain('[inner] one started (attempt 1, command)');
    expect(lines.some((line) => /^\[inner › review\] test completed in /.test(line))).toBe(true);
    expect(lines.some((line) => /^prep completed in /.test(line))).toBe(true);
  }, 60_000);

  it('the text and live views show no run but their own and its children', () => {
    const stranger = { ...events.find((event) => event.type === 'step_started')!, runId: 'other-20240101-000000-aaaa', stepId: 'intruder' } as RunEvent;
    const text = new CollectingStream();
    const sink = createTextSink({ out: text, stepIds: STEP_IDS });
    for (const event of [...events.slice(0, 3), stranger, ...events.slice(3)]) sink.handle(event);
    expect(text.text).not.toContain('intruder');
    expect(text.text).toContain('[inner › review] lint started');
    events.splice(3, 0, stranger);
    try {
      expect(liveFrames().some((frame) => frame.join('\n').includes('intruder'))).toBe(false);
    } finally {
      events.splice(3, 1);
    }
  });
});
