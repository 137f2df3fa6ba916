import { writeFile } from 'node:fs/promises';
import { sleep } from '../../../core/sleep.js';
import type { OutputStreamName, SpawnResult, SpawnSpec } from '../../../process/spawn-spec.js';
import type { RecordedOutput } from './recorded-output.js';
import type { AttemptRecordFile } from './recorded-attempts.js';

/** The most of the output kept as a tail, as a live process's. */
const TAIL_CHARS = 2_000;

/** The failure classes that end a recorded attempt by Wave stopping it: replayed as the same stop when the replay did not stop it itself. */
const STOPPED_CLASSES = new Set(['timeout', 'stalled', 'aborted']);

/** A recorded attempt as a spawn plays it: its output, its record, and how much faster than recorded to feed it. */
export interface RecordedProcess {
  output: RecordedOutput;
  record: AttemptRecordFile;
  /** How much faster than recorded; Infinity feeds it as fast as possible, order kept. */
  speed: number;
}

/**
 * A spawn that starts no process: it writes the recorded stdout and stderr to the attempt's files and feeds their lines,
 * at their recorded times scaled by `speed`, to the adapter's own stream reader, then ends as the recorded process did.
 * A stop (the attempt's time limit, the stall watchdog fed by those lines, a cancel) ends it as it ends a process.
 */
export function replaySpawn(recorded: RecordedProcess): (spec: SpawnSpec, signal: AbortSignal) => Promise<SpawnResult> {
  return async (spec, signal) => {
    const { output, record, speed } = recorded;
    await Promise.all([
      writeFile(spec.stdoutPath, output.stdout),
      writeFile(spec.stderrPath, output.stderr),
      ...(spec.timingPath && output.timing ? [writeFile(spec.timingPath, output.timing)] : []),
    ]);
    const started = Date.now();
    const waitUntil = (at: number) => (Number.isFinite(speed) ? sleep(Math.max(0, started + at / speed - Date.now()), { signal }) : Promise.resolve(!signal.aborted));
    const lines = new LineFeed(spec);
    for (const piece of output.pieces) {
      if (!(await waitUntil(piece.at))) break;
      lines.push(piece.stream, piece.bytes);
      spec.onOutput?.(piece.bytes.length);
    }
    if (!signal.aborted) lines.flush();
    // The process lived on after its last output until it ended (or was stopped): the stall watchdog sees that quiet too.
    if (!signal.aborted) await waitUntil(record.durationMs ?? 0);
    const tails = tailsOf(output);
    if (signal.aborted) return { exitCode: null, signal: 'SIGTERM', aborted: true, abortReason: signal.reason, skippedLines: lines.skipped, ...tails };
    if (record.failure && STOPPED_CLASSES.has(record.failure.class) && record.exitCode === null) {
      return { exitCode: null, signal: 'SIGTERM', aborted: true, abortReason: record.failure, skippedLines: lines.skipped, ...tails };
    }
    const exitSignal = (record.signal ?? null) as NodeJS.Signals | null;
    return { exitCode: record.exitCode ?? null, signal: exitSignal, aborted: false, skippedLines: lines.skipped, ...tails };
  };
}

function tailsOf(output: RecordedOutput): Pick<SpawnResult, 'tail' | 'stderrTail'> {
  const stderr = output.stderr.toString('utf8');
  return { tail: `${output.stdout.toString('utf8')}${stderr}`.slice(-TAIL_CHARS), stderrTail: stderr.slice(-TAIL_CHARS) };
}

/** Splits each stream's bytes into lines as a live process's are read, and hands each complete line on. */
class LineFeed {
  private readonly pending: Record<OutputStreamName, Buffer> = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
  /** Lines longer than the spec's maxLineBytes, counted and skipped. */
  skipped = 0;

  constructor(private readonly spec: SpawnSpec) {}

  /** Takes a piece of a stream: its complete lines go on, the rest waits for the next piece. */
  push(stream: OutputStreamName, bytes: Buffer): void {
    let buffer = Buffer.concat([this.pending[stream], bytes]);
    let end = buffer.indexOf(0x0a);
    while (end >= 0) {
      this.line(stream, buffer.subarray(0, end));
      buffer = buffer.subarray(end + 1);
      end = buffer.indexOf(0x0a);
    }
    this.pending[stream] = buffer;
  }

  /** The streams ended: a last line without a newline goes on too. */
  flush(): void {
    for (const stream of ['stdout', 'stderr'] as const) if (this.pending[stream].length) this.line(stream, this.pending[stream]);
  }

  private line(stream: OutputStreamName, bytes: Buffer): void {
    if (this.spec.maxLineBytes !== undefined && bytes.length > this.spec.maxLineBytes) {
      this.skipped++;
      return;
    }
    this.spec.onLine?.(bytes.toString('utf8').replace(/\r$/, ''), stream);
  }
}
