/** Keeps the last `limit` bytes written to it, whatever the total size. */
export class ByteTail {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly limit: number) {}

  /** Appends a chunk, dropping whole old chunks that fall out of the window. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk.length > this.limit ? Buffer.from(chunk.subarray(chunk.length - this.limit)) : chunk);
    this.bytes += Math.min(chunk.length, this.limit);
    while (this.chunks.length > 1 && this.bytes - this.chunks[0]!.length >= this.limit) {
      this.bytes -= this.chunks.shift()!.length;
    }
  }

  /** The last `limit` bytes. */
  toBuffer(): Buffer {
    const all = Buffer.concat(this.chunks);
    return all.length > this.limit ? all.subarray(all.length - this.limit) : all;
  }

  /** The kept bytes as UTF-8, without a character cut in half at the start. */
  toString(): string {
    const bytes = this.toBuffer();
    let start = 0;
    // Skip continuation bytes (10xxxxxx) left over from a character that began before the window.
    while (start < bytes.length && start < 3 && (bytes[start]! & 0xc0) === 0x80) start += 1;
    return bytes.subarray(start).toString('utf8');
  }
}

/** The last `chars` characters of a text, never starting in the middle of a surrogate pair. */
export function lastChars(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const tail = text.slice(text.length - chars);
  const first = tail.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? tail.slice(1) : tail;
}
