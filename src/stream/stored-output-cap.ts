import { Transform } from 'node:stream';

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

/** Passes the first `capBytes` bytes through, drops the rest and ends with the cut marker when it dropped any. */
export function capStoredOutput(stream: string, capBytes: number): Transform {
  let passed = 0;
  let dropped = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const room = Math.max(0, capBytes - passed);
      passed += Math.min(room, chunk.length);
      dropped += Math.max(0, chunk.length - room);
      callback(null, room >= chunk.length ? chunk : chunk.subarray(0, room));
    },
    flush(callback) {
      callback(null, dropped ? cutMarker(stream, capBytes, dropped) : undefined);
    },
  });
}
