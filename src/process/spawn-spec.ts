import type { Redactor } from '../redact.js';
import type { StepOwner } from './step-processes.js';

/** Which of a process's output streams a line came from. */
export type OutputStreamName = 'stdout' | 'stderr';

/** How spawnInGroup starts and watches one process. */
export interface SpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment: nothing else is inherited. */
  env: Record<string, string>;
  /** Written to stdin, then stdin is closed; when absent stdin is /dev/null. */
  stdin?: string;
  stdoutPath: string;
  stderrPath: string;
  /** Where to keep when each piece of output arrived (process/output-timing.ts); not kept when absent. */
  timingPath?: string;
  /** Applied to both files, to lines and to the tails. */
  redactor: Redactor;
  /** Grace between SIGTERM and SIGKILL to the group. */
  graceMs: number;
  /** Lines longer than this are counted and skipped. */
  maxLineBytes?: number;
  /** Every complete (redacted) line of either stream, in order within each stream. */
  onLine?: (line: string, stream: OutputStreamName) => void;
  /** Bytes that arrived since the last call, at most every ~250 ms while output flows. */
  onOutput?: (bytes: number) => void;
  /** The last line printed so far, of either stream (redacted), at most every ~250 ms while output flows. */
  onLastLine?: (line: string) => void;
  /** When set, keep the last this-many bytes of stdout (redacted) as `stdoutTail`. */
  captureStdoutBytes?: number;
  /** The most of each stream its file keeps (default STORED_OUTPUT_BYTES); the rest is read, parsed and dropped. */
  storedOutputBytes?: number;
  /** Told the pid of the group leader once the process starts. */
  onSpawn?: (pid: number) => void;
  /** How long to wait for the pipes to close after the group is gone. */
  drainMs?: number;
  /** The run and step the process belongs to; defaults to WAVE_RUN_ID and WAVE_STEP_ID of `env`. */
  owner?: StepOwner;
}

/** How a process spawnInGroup started ended, and what it left. */
export interface SpawnResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The process could not be started (ENOENT for a missing binary or cwd, EACCES, bad arguments). */
  spawnError?: NodeJS.ErrnoException;
  /** True when the signal aborted the process before it exited on its own. */
  aborted: boolean;
  /** `signal.reason` when aborted (a Failure such as { class: 'timeout', message }). */
  abortReason?: unknown;
  /** Lines longer than maxLineBytes, counted and skipped. */
  skippedLines: number;
  /** The last 2,000 characters of stdout and stderr together, redacted. */
  tail: string;
  /** The last 2,000 characters of stderr, redacted. */
  stderrTail: string;
  /** The last captureStdoutBytes of stdout, redacted, when asked. */
  stdoutTail?: string;
  pid?: number;
  /** The sandbox stopped the process at a resource limit; says which. */
  limitExceeded?: string;
  /** The stdout or stderr file could not be written (a full or read-only disk; `path` names it): the process was stopped. */
  outputError?: NodeJS.ErrnoException;
}
