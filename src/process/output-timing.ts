import { createWriteStream, type WriteStream } from 'node:fs';
import type { OutputStreamName } from './spawn-spec.js';

/**
 * When each piece of a process's recorded output arrived, kept beside its stdout and stderr so the stream can be played
 * back as it came: one line per piece, `<ms since the start> <stdout|stderr> <that file's length after it>`; a line of
 * output arrived with the piece that ended it. The file is made with the first piece; a process that printed nothing leaves none.
 * One write is in flight at a time; the lines that come meanwhile wait as one string, so a flood of pieces queues no writes.
 */
export class OutputTiming {
  private readonly started = Date.now();
  private readonly lengths: Record<OutputStreamName, number> = { stdout: 0, stderr: 0 };
  private file: WriteStream | undefined;
  private unwritten = '';
  private writing = false;
  private open = 2;

  constructor(private readonly path: string) {}

  /** A piece of `name` of `bytes` bytes went into its file. */
  record(name: OutputStreamName, bytes: number): void {
    this.lengths[name] += bytes;
    this.unwritten += `${Date.now() - this.started} ${name} ${this.lengths[name]}\n`;
    if (!this.writing) this.writeUnwritten();
  }

  /** One stream ended; the file is closed once both have, with every line recorded. */
  end(): Promise<void> {
    if (--this.open > 0 || !this.file) return Promise.resolve();
    const file = this.file;
    const rest = this.unwritten;
    this.unwritten = '';
    return new Promise((resolve) => file.end(rest, resolve));
  }

  private writeUnwritten(): void {
    if (!this.file) {
      this.file = createWriteStream(this.path);
      // A report on the output, never its outcome: a file that cannot be written fails nothing.
      this.file.on('error', () => undefined);
    }
    const text = this.unwritten;
    this.unwritten = '';
    this.writing = true;
    this.file.write(text, () => {
      this.writing = false;
      // After the end, the rest went out with it.
      if (this.unwritten && this.open > 0) this.writeUnwritten();
    });
  }
}
