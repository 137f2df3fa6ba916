import { Writable } from 'node:stream';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import { EVENT_VERSION, type RunEvent } from '../../src/events.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { sampleAttempt, sampleRecord, sampleStep } from '../state/sample-run.js';

export const RUN_ID = 'hello-20240501-120000-abcd';
export const STEP_IDS = ['split', 'count-a', 'count-b', 'merge'];

const at = (clock: string) => `2024-05-01T${clock}Z`;
const base = (clock: string) => ({ v: EVENT_VERSION, ts: at(clock), runId: RUN_ID }) as const;
const tokens = { input: 12_345, output: 678, cacheRead: 0, cacheWrite: 0 };

/** A fan-out run: split passes, count-a reports tokens, count-b retries then fails, merge is skipped. */
export const SCRIPTED_EVENTS: RunEvent[] = [
  { ...base('12:00:00.000'), type: 'run_started', pipeline: 'hello', steps: STEP_IDS, resumed: false },
  { ...base('12:00:00.100'), type: 'step_started', stepId: 'split', attempt: 1, adapter: 'shell', workspace: '/w/split' },
  { ...base('12:00:01.300'), type: 'artifact_saved', stepId: 'split', name: 'parts', path: 'artifacts/split/parts.txt', bytes: 2048 },
  { ...base('12:00:01.300'), type: 'step_completed', stepId: 'split', attempt: 1, durationMs: 1200, tokens: { ...NO_TOKENS } },
  { ...base('12:00:01.400'), type: 'step_started', stepId: 'count-a', attempt: 1, adapter: 'claude', model: 'sonnet', workspace: '/w/a' },
  { ...base('12:00:01.400'), type: 'step_started', stepId: 'count-b', attempt: 1, adapter: 'shell', workspace: '/w/b' },
  { ...base('12:00:02.000'), type: 'step_event', stepId: 'count-a', attempt: 1, event: { kind: 'text', text: 'counting' } },
  { ...base('12:00:02.000'), type: 'step_event', stepId: 'count-a', attempt: 1, event: { kind: 'tool_use', name: 'Bash', target: 'wc -w part-1.txt' } },
  {
    ...base('12:00:02.500'),
    type: 'step_event',
    stepId: 'count-a',
    attempt: 1,
    event: { kind: 'usage', tokens: { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0 }, costUsd: 0.005 },
  },
  { ...base('12:00:02.500'), type: 'step_tokens', stepId: 'count-a', attempt: 1, tokens: { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0 }, costUsd: 0.005 },
  {
    ...base('12:00:03.000'),
    type: 'step_retrying',
    stepId: 'count-b',
    attempt: 1,
    delayMs: 2000,
    failure: { class: 'non_zero_exit', message: 'exit code 1\nwc: part-2.txt: No such file' },
  },
  { ...base('12:00:05.000'), type: 'step_started', stepId: 'count-b', attempt: 2, adapter: 'shell', workspace: '/w/b' },
  { ...base('12:00:06.000'), type: 'step_completed', stepId: 'count-a', attempt: 1, durationMs: 4600, tokens, costUsd: 0.0123 },
  { ...base('12:00:06.500'), type: 'contract_checked', stepId: 'count-a', attempt: 1, contract: 'json_schema', passed: true, action: 'none', errors: [] },
  {
    ...base('12:00:07.000'),
    type: 'step_failed',
    stepId: 'count-b',
    attempt: 2,
    durationMs: 2000,
    failure: { class: 'non_zero_exit', message: 'exit code 2' },
    optional: false,
  },
  { ...base('12:00:07.000'), type: 'step_skipped', stepId: 'merge', reason: 'dependency count-b failed' },
  { ...base('12:00:07.100'), type: 'run_finished', status: 'failed', durationMs: 7100, tokens, costUsd: 0.0123 },
];

/** The summary of scriptedRecord() seen from the project folder, line by line. */
export const SCRIPTED_SUMMARY_LINES = [
  '  ✓ split    completed    1.2s',
  `      → .wave/runs/${RUN_ID}/artifacts/split/parts.txt`,
  '  ✓ count-a  completed    4.6s  12.3k in / 678 out  $0.0123',
  '  ✗ count-b  failed       2.0s  2 attempts  non_zero_exit: exit code 2',
  '  - merge    skipped            dependency count-b failed',
  '',
  `✗ run ${RUN_ID} failed in 7.1s · 12.3k in / 678 out · $0.0123`,
  `  run folder: .wave/runs/${RUN_ID}`,
  `  resume with: wave resume ${RUN_ID}`,
];

/** The run.json the scripted run ends with. */
export function scriptedRecord(): RunRecord {
  return sampleRecord(RUN_ID, { status: 'failed', startedAt: at('12:00:00.000'), finishedAt: at('12:00:07.100'), durationMs: 7100, tokens, costUsd: 0.0123 }, [
    sampleStep('split', {
      status: 'completed',
      durationMs: 1200,
      attempts: [sampleAttempt(1)],
      artifacts: [{ name: 'parts', path: 'artifacts/split/parts.txt', bytes: 2048 }],
    }),
    sampleStep('count-a', { status: 'completed', durationMs: 4600, attempts: [sampleAttempt(1)], tokens, costUsd: 0.0123 }),
    sampleStep('count-b', {
      status: 'failed',
      durationMs: 2000,
      attempts: [sampleAttempt(1), sampleAttempt(2)],
      failure: { class: 'non_zero_exit', message: 'exit code 2' },
    }),
    sampleStep('merge', { status: 'skipped', skipReason: 'dependency count-b failed' }),
  ]);
}

/** A Writable that keeps what it is given; `tty` makes it look like a terminal. */
export class CollectingStream extends Writable {
  text = '';
  isTTY: boolean;
  columns: number | undefined;
  rows: number | undefined;

  constructor(options: { tty?: boolean; columns?: number; rows?: number } = {}) {
    super();
    this.isTTY = options.tty ?? false;
    this.columns = options.columns;
    this.rows = options.rows;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/** The live view's redraw: back to the line start, then up over the frame drawn before (the count is captured). */
export const CURSOR_UP = /\r\x1b\[(\d+)A/g;

/** The frames a live terminal sink wrote, each as its visible lines. */
export function terminalFrames(text: string): string[][] {
  return text
    .split(CURSOR_UP)
    .filter((_, i) => i % 2 === 0) // split keeps the captured line counts at odd indexes
    .map((frame) =>
      frame
        .split('\n')
        .filter(Boolean)
        .map((line) => line.replace(/\x1b\[2K|\x1b\[J/g, ''))
        .filter(Boolean),
    );
}
