import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createRedactingStream } from '../redact.js';
import { ByteTail, lastChars } from '../stream/byte-tail.js';
import { LineSplitter } from '../stream/lines.js';
import { OutputTiming } from './output-timing.js';
import { OutputMeter } from '../stream/output-meter.js';
import { capStoredOutput, STORED_OUTPUT_BYTES } from '../stream/stored-output-cap.js';
import type { OutputStreamName, SpawnResult, SpawnSpec } from './spawn-spec.js';

/** Characters of combined output kept for a retry's prompt. */
export const TAIL_CHARS = 2_000;

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
  private readonly combinedTail = new ByteTail(TAIL_CHARS * 4);
  private readonly stderrTail = new ByteTail(TAIL_CHARS * 4);
  private readonly stdoutCapture: ByteTail | undefined;
  private readonly meter: OutputMeter | undefined;
  private readonly splitters: Record<OutputStreamName, LineSplitter>;
  private readonly timing: OutputTiming | undefined;

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
    const tap = tapStream((chunk) => {
      this.combinedTail.push(chunk);
      if (name === 'stderr') this.stderrTail.push(chunk);
      else this.stdoutCapture?.push(chunk);
      this.splitters[name].write(chunk);
    });
    const count = tapStream((chunk) => this.meter?.add(chunk.length));
    const file = createWriteStream(path);
    file.on('error', (error: NodeJS.ErrnoException) => this.fail(error, path));
    // Raw bytes are counted before redaction, which may hold back part of an unfinished line.
    const cap = capStoredOutput(name, this.spec.storedOutputBytes ?? STORED_OUTPUT_BYTES);
    const stages = this.timing ? [cap, tapStream((chunk) => this.timing!.record(name, chunk.length))] : [cap];
    return pipeline([source, count, createRedactingStream(this.spec.redactor), tap, ...stages, file])
      .catch(() => undefined) // a pipe destroyed by the drain guard still leaves everything read so far
      .finally(() => {
        this.splitters[name].end();
        return this.timing?.end();
      });
  }

  /** Leaves both files empty, for a process that never ran. */
  async saveNothing(): Promise<void> {
    await Promise.all([this.save(null, 'stdout'), this.save(null, 'stderr')]);
  }

  /** Reports what is left of the output's byte count: the output is over. */
  stopMeter(): void {
    this.meter?.stop();
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
