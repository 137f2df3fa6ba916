import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createRedactingStream } from '../redact.js';
import { ByteTail, lastChars } from '../stream/byte-tail.js';
import { LineSplitter } from '../stream/lines.js';
import { OutputTiming } from './output-timing.js';
import { OutputMeter } from '../stream/output-meter.js';
import { StoredOutputCap, STORED_OUTPUT_BYTES } from '../stream/stored-output-cap.js';
import type { OutputStreamName, SpawnResult, SpawnSpec } from './spawn-spec.js';

/** How often, at most, the last line printed is read from the tail and reported. */
const LAST_LINE_MS = 250;

/** Characters of combined output kept for a retry's prompt. */
export const TAIL_CHARS = 2_000;
const COMBINED_TAIL_BYTES = TAIL_CHARS * 4;

/** The last line of `text` with something on it, without its newline; its first line counts only when `whole` (not the cut end of a longer one). */
function lastLine(text: string, whole: boolean): string {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= (whole ? 0 : 1); i--) if (lines[i]!.trim() !== '') return lines[i]!.trimEnd();
  return '';
}

/** A pass-through stage that shows every chunk to `onChunk`. */
function tapStream(onChunk: (chunk: Buffer) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      onChunk(chunk);
      callback(null, chunk);
    },
  });
}

/**
 * A process's stdout and stderr as spawnInGroup records them: redacted into their files with flat memory, split into
 * lines, metered, and kept as the tails its result carries.
 */
export class OutputRecorder {
  /**
   * The first error writing either file, with the path it concerned. Output that cannot be recorded is a failure of
   * the step, said as such; the process is stopped rather than left to die of a closed pipe (SIGPIPE) or to run on unrecorded.
   */
  outputError: NodeJS.ErrnoException | undefined;
  /** Stops the process once output cannot be recorded; set when there is a process to stop. */
  onOutputError: (() => void) | undefined;
  private readonly combinedTail = new ByteTail(COMBINED_TAIL_BYTES);
  private readonly stderrTail = new ByteTail(TAIL_CHARS * 4);
  private readonly stdoutCapture: ByteTail | undefined;
  private readonly meter: OutputMeter | undefined;
  private readonly splitters: Record<OutputStreamName, LineSplitter>;
  private readonly timing: OutputTiming | undefined;
  private lastLineAt = -Infinity;

  constructor(private readonly spec: SpawnSpec) {
    this.stdoutCapture = spec.captureStdoutBytes ? new ByteTail(spec.captureStdoutBytes) : undefined;
    this.meter = spec.onOutput ? new OutputMeter(spec.onOutput) : undefined;
    this.timing = spec.timingPath ? new OutputTiming(spec.timingPath) : undefined;
    this.splitters = {
      stdout: new LineSplitter(spec.onLine && ((line) => spec.onLine!(line, 'stdout')), { maxLineBytes: spec.maxLineBytes }),
      stderr: new LineSplitter(spec.onLine && ((line) => spec.onLine!(line, 'stderr')), { maxLineBytes: spec.maxLineBytes }),
    };
  }

  /** Records one stream until it ends; a missing stream leaves an empty file. Never rejects. */
  save(source: Readable | null, name: OutputStreamName): Promise<void> {
    const path = name === 'stdout' ? this.spec.stdoutPath : this.spec.stderrPath;
    if (!source)
      return writeFile(path, '')
        .catch((error: NodeJS.ErrnoException) => this.fail(error, path))
        .finally(() => this.timing?.end());
    // Raw bytes are counted before redaction, which may hold back part of an unfinished line.
    const count = tapStream((chunk) => this.meter?.add(chunk.length));
    const file = createWriteStream(path);
    file.on('error', (error: NodeJS.ErrnoException) => this.fail(error, path));
    return pipeline([source, count, createRedactingStream(this.spec.redactor), this.recordStage(name), file])
      .catch(() => undefined) // a pipe destroyed by the drain guard still leaves everything read so far
      .finally(() => {
        this.splitters[name].end();
        return this.timing?.end();
      });
  }

  /**
   * The one stage after redaction: the tails and lines see each chunk whole, the file gets what the stored-output cap
   * keeps (and its cut marker), and the timing what reached the file.
   */
  private recordStage(name: OutputStreamName): Transform {
    const cap = new StoredOutputCap(name, this.spec.storedOutputBytes ?? STORED_OUTPUT_BYTES);
    const stored = (piece: Buffer | undefined): Buffer | undefined => {
      if (piece?.length) this.timing?.record(name, piece.length);
      return piece;
    };
    return new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.observe(name, chunk);
        callback(null, stored(cap.keep(chunk)));
      },
      flush: (callback) => callback(null, stored(cap.ending())),
    });
  }

  /** A redacted chunk of `name` as the tails, the last line and the line splitter take it. */
  private observe(name: OutputStreamName, chunk: Buffer): void {
    this.combinedTail.push(chunk);
    this.reportLastLine();
    if (name === 'stderr') this.stderrTail.push(chunk);
    else this.stdoutCapture?.push(chunk);
    this.splitters[name].write(chunk);
  }

  /** Leaves both files empty, for a process that never ran. */
  async saveNothing(): Promise<void> {
    await Promise.all([this.save(null, 'stdout'), this.save(null, 'stderr')]);
  }

  /** Reports what is left of the output's byte count: the output is over. */
  stopMeter(): void {
    this.meter?.stop();
  }

  /** Tells onLastLine the last line printed so far, at most every LAST_LINE_MS: what reached the (redacted) tail. */
  private reportLastLine(): void {
    const now = Date.now();
    if (!this.spec.onLastLine || now - this.lastLineAt < LAST_LINE_MS) return;
    this.lastLineAt = now;
    const tail = this.combinedTail.toBuffer();
    const line = lastLine(tail.toString('utf8'), tail.length < COMBINED_TAIL_BYTES);
    if (line) this.spec.onLastLine(line);
  }

  /** The process's result: `fields` over a run that never started, with the line count and tails recorded. */
  result(fields: Partial<SpawnResult>): SpawnResult {
    return {
      exitCode: null,
      signal: null,
      aborted: false,
      ...fields,
      skippedLines: this.splitters.stdout.skippedLines + this.splitters.stderr.skippedLines,
      tail: lastChars(this.combinedTail.toString(), TAIL_CHARS),
      stderrTail: lastChars(this.stderrTail.toString(), TAIL_CHARS),
      ...(this.stdoutCapture ? { stdoutTail: this.stdoutCapture.toString() } : {}),
    };
  }

  private fail(error: NodeJS.ErrnoException, path: string): void {
    if (this.outputError) return;
    this.outputError = Object.assign(error, { path: error.path ?? path });
    this.onOutputError?.();
  }
}
