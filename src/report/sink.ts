import type { Writable } from 'node:stream';
import type { RunEvent } from '../events.js';
import { redactValues, type TextRedactor } from '../state/redact-values.js';
import type { RunRecord } from '../state/run-record.js';
import { createJsonSink } from './json.js';
import { createQuietSink } from './quiet.js';
import { createTerminalSink } from './terminal.js';
import { createTextSink } from './text.js';

/** Where a sink writes: process.stdout, or any Writable (tests use a collecting one). */
export type Output = Writable | NodeJS.WriteStream;

/** A subscriber of the run's events that renders them somewhere; it never reaches back into the executor. */
export interface RunSink {
  handle(event: RunEvent): void;
  /** Prints the end-of-run summary (or as much of it as the mode wants) from the final record. */
  summarize(record: RunRecord, runDir: string): void;
  /** Stops timers and draws the last frame; safe to call twice. */
  close(): void;
}

/** What every sink is built from. */
export interface SinkOptions {
  out: Output;
  /** Every step of the plan, in display order. */
  stepIds: string[];
  /** Force colours on or off; default: on for a TTY without NO_COLOR. */
  color?: boolean;
  /** Folder artifact paths in the summary are shown relative to (default process.cwd()). */
  cwd?: string;
}

export const OUTPUT_MODES = ['auto', 'text', 'quiet', 'json'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export interface CreateSinkOptions extends SinkOptions {
  /** Hides secrets in every printed event. */
  redactor?: TextRedactor;
}

/** The sink for `--output <mode>`: auto is the live view on a TTY and plain text elsewhere. */
export function createSink(mode: OutputMode, options: CreateSinkOptions): RunSink {
  const sink = stopsWhenClosed(pick(mode, options), options.out);
  const { redactor } = options;
  if (!redactor) return sink;
  return { ...sink, handle: (event: RunEvent) => sink.handle(redactValues(event, redactor)) };
}

const absorbing = new WeakSet<Output>();

/**
 * A sink whose output may be closed under it (`--json | head -1`): the stream's write errors (EPIPE) are
 * absorbed instead of crashing the process, and the sink stops printing once the stream is no longer writable.
 */
function stopsWhenClosed(sink: RunSink, out: Output): RunSink {
  if (!absorbing.has(out)) {
    absorbing.add(out);
    out.on('error', () => undefined);
  }
  const open = () => out.writable !== false;
  return {
    handle: (event) => void (open() && sink.handle(event)),
    summarize: (record, runDir) => void (open() && sink.summarize(record, runDir)),
    close: () => sink.close(),
  };
}

function pick(mode: OutputMode, options: SinkOptions): RunSink {
  switch (mode) {
    case 'json':
      return createJsonSink(options);
    case 'quiet':
      return createQuietSink(options);
    case 'text':
      return createTextSink(options);
    case 'auto':
      return isLiveTerminal(options.out) ? createTerminalSink(options) : createTextSink(options);
  }
}

function isLiveTerminal(out: SinkOptions['out']): boolean {
  return (out as NodeJS.WriteStream).isTTY === true && process.env.TERM !== 'dumb';
}
