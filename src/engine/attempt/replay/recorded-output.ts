import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OutputStreamName } from '../../../process/spawn-spec.js';

/** One piece of recorded output: when it came (ms after the start), on which stream, and its bytes. */
export interface OutputPiece {
  at: number;
  stream: OutputStreamName;
  bytes: Buffer;
}

/** A recorded attempt's output: its stdout and stderr files, and their pieces in the order they came. */
export interface RecordedOutput {
  stdout: Buffer;
  stderr: Buffer;
  /** The output.timing file as it was, '' when the attempt printed nothing. */
  timing: string;
  pieces: OutputPiece[];
}

/** Reads an attempt folder's stdout, stderr and output.timing (`<ms> <stream> <length after>` a line) into pieces; without timing, each file is one piece at 0. */
export async function readRecordedOutput(dir: string): Promise<RecordedOutput> {
  const [stdout, stderr, timing] = await Promise.all([orEmpty(join(dir, 'stdout')), orEmpty(join(dir, 'stderr')), orEmpty(join(dir, 'output.timing'))]);
  const files = { stdout, stderr };
  const read: Record<OutputStreamName, number> = { stdout: 0, stderr: 0 };
  const pieces: OutputPiece[] = [];
  const take = (at: number, stream: OutputStreamName, upTo: number) => {
    const end = Math.min(upTo, files[stream].length);
    if (end > read[stream]) pieces.push({ at, stream, bytes: files[stream].subarray(read[stream], end) });
    read[stream] = Math.max(read[stream], end);
  };
  for (const line of timing.toString('utf8').split('\n')) {
    const [at, stream, length] = line.split(' ');
    if ((stream === 'stdout' || stream === 'stderr') && Number.isFinite(Number(at)) && Number.isFinite(Number(length))) take(Number(at), stream, Number(length));
  }
  // What the timing file does not cover (a run before it, or a file cut short) comes last, at the last time known.
  const last = pieces.at(-1)?.at ?? 0;
  take(last, 'stdout', stdout.length);
  take(last, 'stderr', stderr.length);
  return { stdout, stderr, timing: timing.toString('utf8'), pieces };
}

async function orEmpty(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch {
    return Buffer.alloc(0);
  }
}
