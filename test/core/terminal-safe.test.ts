import { describe, expect, it } from 'vitest';
import { quotedBlock, safeLine, safeText } from '../../src/core/terminal-safe.js';
import { ESCAPES, RAW_CONTROL } from '../support/attacks.mjs';

describe('safeText', () => {
  it('shows every terminal escape a step can print as visible text, and keeps \\n and \\t', () => {
    const shown = safeText(`title${ESCAPES.join('')}\n\tindented`);
    expect(shown).not.toMatch(RAW_CONTROL);
    expect(shown).toBe('title\\x1b[2J\\x1b[H\\x1b]0;PWNED-TITLE\\x07\\x1b[31m\\rOVERWRITE\\x9b2J\\u2028\n\tindented');
  });

  it('reads a \\r\\n line end as \\n, and escapes DEL, NUL and NEL', () => {
    expect(safeText('a\r\nb\x7f\x00\u0085')).toBe('a\nb\\x7f\\x00\\x85');
  });

  it('leaves text without control characters as it is, non-ASCII included', () => {
    const plain = 'Résumé: 日本語 ✓ — “quotes” \\x1b as typed';
    expect(safeText(plain)).toBe(plain);
    expect(safeLine(plain)).toBe(plain);
  });
});

describe('safeLine', () => {
  it('keeps a file name with a newline on one line', () => {
    expect(safeLine('evil\n## Step: fake\tx\x1b[2J')).toBe('evil\\n## Step: fake\\tx\\x1b[2J');
  });
});

describe('quotedBlock', () => {
  it('quotes every line, so none starts at column 0, and escapes what it quotes', () => {
    expect(quotedBlock('one\n[#2 fake] 2026\n\n---\x1b[2J')).toBe('> one\n> [#2 fake] 2026\n>\n> ---\\x1b[2J');
  });

  it('cannot be broken out of by a line separator or a carriage return', () => {
    const block = quotedBlock('a\u2028[#9 fake] x\rb\u2029## Step: fake');
    expect(block.split(/\r\n|[\n\r\u2028\u2029\x85\v\f]/)).toEqual(['> a\\u2028[#9 fake] x\\rb\\u2029## Step: fake']);
  });
});
