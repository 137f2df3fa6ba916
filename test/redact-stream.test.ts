import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, createRedactingStream } from '../src/redact.js';

/** Pushes `bytes` through a redacting stream in chunks of the given sizes (cycled). */
async function throughStream(redactor: Redactor, bytes: Buffer, chunkSizes: number[], windowBytes?: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i += 1) {
    const size = Math.max(1, chunkSizes[i % chunkSizes.length]!);
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return buffer(Readable.from(chunks).pipe(createRedactingStream(redactor, { windowBytes })));
}

const SECRET = 'planted-secret-value-0123';
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe('createRedactingStream', () => {
  it('catches a secret and a token split across chunk boundaries at every offset', async () => {
    const redactor = new Redactor([SECRET]);
    const text = `line one\nuser ${SECRET} and ${TOKEN} end\nlast ${SECRET}`;
    const expected = Buffer.from(redactor.redact(text));
    for (const size of [1, 2, 3, 5, 7, 11, 64]) {
      expect((await throughStream(redactor, Buffer.from(text), [size])).equals(expected)).toBe(true);
    }
  });

  it('catches secrets straddling window cuts in a line without newlines', async () => {
    const redactor = new Redactor([SECRET]);
    // Secrets back to back: wherever a window is cut, it falls inside one of them.
    const dense = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? TOKEN : SECRET)).join(' ');
    for (const [shift, sizes] of [
      [0, [1]],
      [5, [1]],
      [0, [97, 1024, 13]],
      [7, [3, 5]],
      [11, [4096]],
    ] as const) {
      const text = `${'.'.repeat(shift)}${dense}`;
      const out = (await throughStream(redactor, Buffer.from(text), [...sizes], 16)).toString();
      expect(out).toBe(redactor.redact(text));
      expect(out.split(REDACTED)).toHaveLength(301);
    }
  });

  it('never lets a planted secret or token through, whatever the text and chunking', async () => {
    const redactor = new Redactor([SECRET]);
    const piece = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constant(SECRET),
      fc.constant(TOKEN),
      fc.constant('\n'),
      fc.constant(' é日🎉 '),
      // Longer than a window's overlap, so windows get cut inside lines.
      fc.constant('y'.repeat(2500)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 64 }),
        async (pieces, sizes, windowBytes) => {
          // Spaces around every piece, so a token is never glued to a word character before it.
          const text = pieces.join(' ');
          const out = (await throughStream(redactor, Buffer.from(text), sizes, windowBytes)).toString();
          expect(out).not.toContain(SECRET);
          expect(out).not.toContain(TOKEN);
          if (!pieces.includes(SECRET) && !pieces.includes(TOKEN)) expect(out).toBe(redactor.redact(text));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('redacts a secret and a token inside a 20 MB line', async () => {
    const redactor = new Redactor([SECRET]);
    const half = Buffer.alloc(10 * 1024 * 1024, 'x');
    const line = Buffer.concat([half, Buffer.from(` ${SECRET} ${TOKEN} `), half, Buffer.from('\nnext line\n')]);
    const out = await throughStream(redactor, line, [65536]);
    expect(out.includes(SECRET)).toBe(false);
    expect(out.includes(TOKEN)).toBe(false);
    expect(out.length).toBe(line.length - SECRET.length - TOKEN.length + 2 * REDACTED.length);
    expect(out.subarray(half.length, half.length + 2 * REDACTED.length + 3).toString()).toBe(` ${REDACTED} ${REDACTED} `);
    expect(out.subarray(-11).toString()).toBe('\nnext line\n');
  });

  it('passes multibyte text and binary bytes through unchanged', async () => {
    const redactor = new Redactor(['pässwörd-ünï']);
    const text = Buffer.from('héllo wörld — 日本語 🎉\nдобрый день pässwörd-ünï\n');
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    const out = await throughStream(redactor, Buffer.concat([text, binary]), [3]);
    expect(out.subarray(0, out.length - binary.length).toString()).toBe(`héllo wörld — 日本語 🎉\nдобрый день ${REDACTED}\n`);
    expect(out.subarray(out.length - binary.length).equals(binary)).toBe(true);
  });
});
