import { describe, expect, it } from 'vitest';
import { ByteTail, lastChars } from '../../src/stream/byte-tail.js';

describe('ByteTail', () => {
  it('keeps only the last bytes, whatever the chunk sizes', () => {
    const tail = new ByteTail(10);
    for (const piece of ['abc', 'defghijkl', 'mnopqrstuvwxyz', '0', '12']) tail.push(Buffer.from(piece));
    expect(tail.toString()).toBe('tuvwxyz012');
    expect(tail.toBuffer()).toHaveLength(10);
  });

  it('never starts with half a character', () => {
    const tail = new ByteTail(5);
    tail.push(Buffer.from('aé日本'));
    // The last 5 bytes are the tail of é's neighbour 日 (partial) and 本: only whole characters remain.
    expect(tail.toString()).toBe('本');
  });

  it('lastChars does not cut a surrogate pair', () => {
    expect(lastChars('ab🎉c', 3)).toBe('🎉c');
    expect(lastChars('ab🎉c', 2)).toBe('c');
    expect(lastChars('abc', 10)).toBe('abc');
  });
});
