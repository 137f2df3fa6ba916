/** Lines longer than this many bytes are counted and skipped unless a caller says otherwise. */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = '\r';

export interface LineSplitterOptions {
  /** Longest line delivered, in bytes (without its newline); longer ones are counted and skipped. */
  maxLineBytes?: number;
}

/**
 * Splits a byte stream into UTF-8 lines with a bounded length. Over-long lines are counted and skipped,
 * a final line without newline is delivered by end(), CRLF loses its CR, and nothing here throws.
 * Without an onLine callback it only counts over-long lines, in constant time per chunk.
 */
export class LineSplitter {
  private readonly maxLineBytes: number;
  private parts: Buffer[] = [];
  private pendingBytes = 0;
  private overflowing = false;
  private skipped = 0;

  constructor(
    private readonly onLine?: (line: string) => void,
    options: LineSplitterOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** Lines skipped so far because they were longer than maxLineBytes. */
  get skippedLines(): number {
    return this.skipped;
  }

  /** Feeds the next chunk of the stream. */
  write(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.onLine) this.splitEveryLine(bytes);
    else this.countLongLines(bytes);
  }

  /** Ends the stream: delivers (or counts) a final line that had no newline. */
  end(): void {
    if (this.pendingBytes > 0 || this.overflowing || this.parts.length > 0) this.finishLine();
  }

  private splitEveryLine(bytes: Buffer): void {
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.append(bytes, start, bytes.length);
        return;
      }
      if (this.pendingBytes === 0 && !this.overflowing) this.lineWithin(bytes, start, newline);
      else {
        this.append(bytes, start, newline);
        this.finishLine();
      }
      start = newline + 1;
    }
  }

  // A line that begins and ends in one chunk is decoded where it lies: no copy, one conversion.
  private lineWithin(bytes: Buffer, start: number, end: number): void {
    if (end - start > this.maxLineBytes) this.skipped += 1;
    else if (this.onLine) this.deliver(bytes.toString('utf8', start, end));
  }

  // Only the line crossing into this chunk and the one left open can be long, unless the chunk itself is.
  private countLongLines(bytes: Buffer): void {
    const first = bytes.indexOf(NEWLINE);
    if (first === -1) {
      this.append(bytes, 0, bytes.length);
      return;
    }
    this.append(bytes, 0, first);
    this.finishLine();
    const last = bytes.lastIndexOf(NEWLINE);
    if (last - first - 1 > this.maxLineBytes) this.splitEveryLine(bytes.subarray(first + 1, last + 1));
    this.append(bytes, last + 1, bytes.length);
  }

  private append(bytes: Buffer, start: number, end: number): void {
    if (this.overflowing || end <= start) return;
    this.pendingBytes += end - start;
    if (this.pendingBytes > this.maxLineBytes) {
      this.overflowing = true;
      this.parts = [];
      return;
    }
    // Copy: a slice would pin the whole chunk in memory for as long as the line stays open.
    if (this.onLine) this.parts.push(Buffer.from(bytes.subarray(start, end)));
  }

  private finishLine(): void {
    const overflowed = this.overflowing;
    const parts = this.parts;
    this.parts = [];
    this.pendingBytes = 0;
    this.overflowing = false;
    if (overflowed) {
      this.skipped += 1;
      return;
    }
    if (!this.onLine) return;
    this.deliver((parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8'));
  }

  private deliver(line: string): void {
    this.onLine!(line.endsWith(CARRIAGE_RETURN) ? line.slice(0, -1) : line);
  }
}

/** Parses one NDJSON line: the object, or undefined when the line is not JSON or not an object. */
export function parseJsonLine(line: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A byte sink that turns NDJSON into objects. */
export interface JsonLineParser {
  write(chunk: Buffer | string): void;
  end(): void;
  /** Lines too long, not JSON, or not an object; blank lines are ignored, not counted. */
  readonly skippedLines: number;
}

/** Feeds NDJSON bytes in, gets objects out; a bad line is counted and skipped, never fatal. */
export function parseJsonLines(onObject: (object: Record<string, unknown>) => void, options: LineSplitterOptions = {}): JsonLineParser {
  let invalid = 0;
  const splitter = new LineSplitter((line) => {
    if (line.trim() === '') return;
    const object = parseJsonLine(line);
    if (object === undefined) invalid += 1;
    else onObject(object);
  }, options);
  return {
    write: (chunk) => splitter.write(chunk),
    end: () => splitter.end(),
    get skippedLines() {
      return splitter.skippedLines + invalid;
    },
  };
}
