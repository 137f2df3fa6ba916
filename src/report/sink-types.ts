import type { Writable } from 'node:stream';
import type { RunEvent } from '../events.js';
import type { RunRecord } from '../state/record/run-record.js';

/** Where a sink writes: process.stdout, or any Writable (tests use a collecting one). */
export type Output = Writable | NodeJS.WriteStream;

/** A subscriber of the run's events that renders them somewhere; it never reaches back into the executor. */
export interface RunSink {
  handle(event: RunEvent): void;
  /** Prints the end-of-run summary (or as much of it as the mode wants) from the final record. */
  summarize(record: RunRecord, runDir: string): void;
  /** Stops timers and draws the last frame; safe to call twice. */
  close(): void;
  /** Stops drawing in place while something else asks the person (true), then goes on below it (false): a live view's. */
  hold?(held: boolean): void;
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
