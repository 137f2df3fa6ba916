import { open } from 'node:fs/promises';
import type { RunEvent } from '../events.js';
import { parseEventLines } from './events-file.js';

/** Bytes read from the file at a time. */
const CHUNK_BYTES = 1 << 20;

/** Reads an events.ndjson that is still growing: each read() returns the events appended since the last one. */
export class EventsTail {
  private offset = 0;
  /** The bytes of a line not yet ended by its newline: it is parsed once it is whole. */
  private partial = Buffer.alloc(0);

  constructor(private readonly file: string) {}

  /** The whole events appended since the last call (none while the file is absent). */
  async read(): Promise<RunEvent[]> {
    let handle;
    try {
      handle = await open(this.file, 'r');
    } catch {
      return []; // Not written yet: the run has not started its first step.
    }
    const chunks: Buffer[] = [this.partial];
    try {
      const buffer = Buffer.alloc(CHUNK_BYTES);
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
        if (bytesRead === 0) break;
        chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
        this.offset += bytesRead;
      }
    } finally {
      await handle.close();
    }
    const bytes = Buffer.concat(chunks);
    const end = bytes.lastIndexOf(0x0a) + 1;
    this.partial = bytes.subarray(end);
    return parseEventLines(bytes.subarray(0, end).toString('utf8'));
  }
}
