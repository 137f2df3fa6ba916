import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter, parseJsonLine, parseJsonLines } from '../../src/stream/lines.js';

/** Feeds `input` in pieces of the given sizes (cycled) and returns the lines and the skipped count. */
function split(input: Buffer | string, options: { maxLineBytes?: number; chunkSizes?: number[] } = {}) {
  const bytes = typeof input === 'string' ? Buffer.from(input) : input;
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line), { maxLineBytes: options.maxLineBytes });
  feed(splitter, bytes, options.chunkSizes ?? [bytes.length || 1]);
  return { lines, skipped: splitter.skippedLines };
}

function feed(sink: { write(chunk: Buffer): void; end(): void }, bytes: Buffer, chunkSizes: number[]): void {
  let offset = 0;
  for (let i = 0; offset < bytes.length; i += 1) {
    const size = Math.max(1, chunkSizes[i % chunkSizes.length]!);
    sink.write(bytes.subarray(offset, offset + size));
    offset += size;
  }
  sink.end();
}

describe('LineSplitter', () => {
  it('delivers lines, a final line without newline, and strips the CR of CRLF', () => {
    expect(split('one\r\ntwo\n\nthree').lines).toEqual(['one', 'two', '', 'three']);
    expect(split('only\n').lines).toEqual(['only']);
    expect(split('').lines).toEqual([]);
  });

  it('keeps a multibyte character split across chunks intact', () => {
    const text = 'héllo 日本語 🎉\nsecond ünïcode\n';
    expect(split(text, { chunkSizes: [1] }).lines).toEqual(['héllo 日本語 🎉', 'second ünïcode']);
    expect(split(text, { chunkSizes: [2, 3] }).lines).toEqual(['héllo 日本語 🎉', 'second ünïcode']);
  });

  it('counts and skips a line over the limit, and goes on with the next ones', () => {
    const input = `short\n${'x'.repeat(100)}\nafter\n${'y'.repeat(11)}`;
    const result = split(input, { maxLineBytes: 10, chunkSizes: [7] });
    expect(result.lines).toEqual(['short', 'after']);
    expect(result.skipped).toBe(2);
  });

  it('accepts a line of exactly the limit and skips one byte more', () => {
    expect(split('1234567890\n12345678901\n', { maxLineBytes: 10 })).toEqual({ lines: ['1234567890'], skipped: 1 });
  });

  it('never throws on binary noise and splits it like any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1 }), (noise, sizes) => {
        const bytes = Buffer.from(noise);
        const result = split(bytes, { maxLineBytes: 50, chunkSizes: sizes });
        const expected = bytes
          .toString('latin1')
          .split('\n')
          .filter((_, i, all) => i < all.length - 1 || all[i] !== '');
        const kept = expected.filter((line) => line.length <= 50);
        expect(result.lines.length).toBe(kept.length);
        expect(result.skipped).toBe(expected.length - kept.length);
      }),
    );
  });

  it('counts the same over-long lines with or without a line callback, whatever the chunking', () => {
    const line = fc.oneof(fc.string({ maxLength: 5 }), fc.string({ minLength: 20, maxLength: 80 }));
    fc.assert(
      fc.property(fc.array(line), fc.boolean(), fc.array(fc.integer({ min: 1, max: 70 }), { minLength: 1 }), (lines, lastNewline, sizes) => {
        const text = lines.map((l) => l.replace(/[\r\n]/g, '.')).join('\n') + (lastNewline ? '\n' : '');
        const bytes = Buffer.from(text);
        const counting = new LineSplitter(undefined, { maxLineBytes: 16 });
        feed(counting, bytes, sizes);
        expect(counting.skippedLines).toBe(split(bytes, { maxLineBytes: 16, chunkSizes: sizes }).skipped);
      }),
    );
  });
});

describe('parseJsonLines', () => {
  it('turns NDJSON into objects, counting garbage and non-objects, ignoring blank lines', () => {
    const objects: unknown[] = [];
    const parser = parseJsonLines((object) => objects.push(object), { maxLineBytes: 64 });
    const input = ['{"type":"a","n":1}\r', 'not json at all', '', '   ', '[1,2,3]', '42', 'null', '{"truncated": ', `{"long":"${'z'.repeat(100)}"}`, '{"type":"b"}'].join('\n');
    feed(parser, Buffer.concat([Buffer.from(`${input}\n`), Buffer.from([0xff, 0xfe, 0x00, 0x0a]), Buffer.from('{"type":"last"}')]), [5]);
    expect(objects).toEqual([{ type: 'a', n: 1 }, { type: 'b' }, { type: 'last' }]);
    // not json, array, number, null, truncated, too long, binary noise
    expect(parser.skippedLines).toBe(7);
  });

  it('parses one line into an object or undefined', () => {
    expect(parseJsonLine('{"a":[1]}')).toEqual({ a: [1] });
    expect(parseJsonLine('"text"')).toBeUndefined();
    expect(parseJsonLine('{')).toBeUndefined();
  });
});
