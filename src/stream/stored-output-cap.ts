const MIB = 1024 * 1024;
/** The most of each output stream (stdout, stderr) an attempt's files keep: an agent printing without end fills no disk. */
export const STORED_OUTPUT_BYTES = 100 * MIB;

/** A cap as a message says it: whole MiB, or bytes. */
export function capLabel(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

/** The line that ends a stored stream cut at the cap, naming the cap and what was left out. */
export function cutMarker(stream: string, capBytes: number, droppedBytes: number): string {
  return `\n[wave] ${stream} cut here: Wave stores at most ${capLabel(capBytes)} of each output stream per attempt; ${droppedBytes} more bytes were not stored\n`;
}

/** A stream's bytes held to a cap: the first `capBytes` bytes are kept, the rest dropped and said by the cut marker. */
export class StoredOutputCap {
  private passed = 0;
  private dropped = 0;

  constructor(
    private readonly stream: string,
    private readonly capBytes: number,
  ) {}

  /** What of `chunk` is kept: all of it under the cap, its head at the cap, nothing past it. */
  keep(chunk: Buffer): Buffer {
    const room = Math.max(0, this.capBytes - this.passed);
    this.passed += Math.min(room, chunk.length);
    this.dropped += Math.max(0, chunk.length - room);
    return room >= chunk.length ? chunk : chunk.subarray(0, room);
  }

  /** The cut marker that ends the stored stream once bytes were dropped; undefined when none were. */
  ending(): Buffer | undefined {
    return this.dropped ? Buffer.from(cutMarker(this.stream, this.capBytes, this.dropped)) : undefined;
  }
}
