import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import { createTerminalSink } from '../../src/report/terminal/terminal.js';
import { describeEvent } from '../../src/report/text.js';
import { CollectingStream, terminalFrames } from './scripted-run.js';

const runId = 'count-20240501-120000-abcd';
const child = 'count.again-20240501-120001-0002';
const at = (ms: number) => new Date(Date.parse('2024-05-01T12:00:00Z') + ms).toISOString();
const base = (ms: number, id = runId) => ({ v: 1 as const, ts: at(ms), runId: id });

/** A loop at its second iteration of five, whose child run is at its one step. */
const EVENTS: RunEvent[] = [
  { ...base(0), type: 'run_started', pipeline: 'count', steps: ['again'], resumed: false },
  { ...base(0), type: 'step_began', stepId: 'again' },
  { ...base(1), type: 'loop_iteration', stepId: 'again', iteration: 1, of: 5, reused: true },
  { ...base(2), type: 'loop_iteration', stepId: 'again', iteration: 2, of: 5 },
  { ...base(3), type: 'child_run_started', stepId: 'again', childRunId: child, pipeline: 'count.again' },
  { ...base(4, child), type: 'run_started', pipeline: 'count.again', steps: ['tick'], resumed: false },
  { ...base(5, child), type: 'step_started', stepId: 'tick', attempt: 1, adapter: 'command', workspace: '/w' },
];

describe('a loop step as a person watches it', () => {
  it("the live view: the iteration it is at before its child run's activity, the child's steps under it", () => {
    const out = new CollectingStream({ tty: true, columns: 100, rows: 10 });
    const sink = createTerminalSink({ out, stepIds: ['again'], color: false, now: () => Date.parse(at(500)) });
    for (const event of EVENTS) sink.handle(event);
    sink.close();
    const frame = terminalFrames(out.text).at(-1)!;
    expect(frame[0]).toBe(`▸ again    0.5s  iteration 2/5: child run ${child} (count.again)`);
    expect(frame[1]).toMatch(/^ {2}▸ tick +0\.5s/);
  });

  it('the text output: each iteration, one an earlier run completed, and why the loop ended', () => {
    const step = (id: string) => id;
    expect(describeEvent(EVENTS[2]!, step)).toBe('again iteration 1/5 (completed in an earlier run, not run again)');
    expect(describeEvent(EVENTS[3]!, step)).toBe('again iteration 2/5');
    expect(describeEvent({ ...base(9), type: 'loop_ended', stepId: 'again', iterations: 5, reason: 'max_iterations' }, step)).toBe(
      'again loop ended after 5 iterations: max_iterations reached',
    );
  });
});
