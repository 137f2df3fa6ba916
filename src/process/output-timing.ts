import { createWriteStream, type WriteStream } from 'node:fs';
import type { OutputStreamName } from './spawn-spec.js';

/**
 * When each piece of a process's recorded output arrived, kept beside its stdout and stderr so the stream can be played
 * back as it came: one line per piece, `<ms since the start> <stdout|stderr> <that file's length after it>`; a line of
 * output arrived with the piece that ended it. The file is made with the first piece; a process that printed nothing leaves none.
 */
export class OutputTiming {
  private readonly started = Date.now();
  private readonly lengths: Record<OutputStreamName, number> = { stdout: 0, stderr: 0 };
  private file: WriteStream | undefined;
  private open = 2;

  constructor(private readonly path: string) {}

  /** A piece of `name` of `bytes` bytes went into its file. */
  record(name: OutputStreamName, bytes: number): void {
    this.lengths[name] += bytes;
    if (!this.file) {
      this.file = createWriteStream(this.path);
      // A report on the output, never its outcome: a file that cannot be written fails nothing.
      this.file.on('error', () => undefined);
    }
    this.file.write(`${Date.now() - this.started} ${name} ${this.lengths[name]}\n`);
  }

  /** One stream ended; the file is closed once both have. */
  end(): Promise<void> {
    if (--this.open > 0 || !this.file) return Promise.resolve();
    const file = this.file;
    return new Promise((resolve) => file.end(resolve));
  }
}
