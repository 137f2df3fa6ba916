import { describe, expect, it } from 'vitest';
import { ROUND_TEXT_CHARS, jsonFields, roundText } from '../../src/engine/steps/round-text.js';

describe('roundText', () => {
  it('keeps a text of up to 16000 characters whole', () => {
    expect(ROUND_TEXT_CHARS).toBe(16_000);
    const text = 'x'.repeat(16_000);
    expect(roundText(text)).toBe(text);
    expect(roundText('')).toBe('');
  });

  it('keeps the last 16000 characters of a longer text, saying how many came before', () => {
    const text = `${'head '.repeat(2000)}${'m'.repeat(15_990)}THE-ANSWER`;
    const kept = roundText(text);
    const cut = text.length - 16_000;
    expect(kept).toBe(`[… ${cut} characters before]\n${text.slice(-16_000)}`);
    expect(kept.endsWith('THE-ANSWER')).toBe(true);
    expect(kept).not.toContain('head');
    expect(roundText('y'.repeat(16_001))).toBe(`[… 1 characters before]\n${'y'.repeat(16_000)}`);
  });
});

describe('jsonFields', () => {
  it('gives the fields of a JSON object output, surrounding whitespace allowed', () => {
    expect(jsonFields('  {"verdict": "approve", "findings": [{"line": 3}]}\n')).toEqual({ output: { verdict: 'approve', findings: [{ line: 3 }] } });
  });

  it('gives nothing for anything else: prose, arrays, null, broken JSON, JSON after prose', () => {
    for (const text of ['done', '[1, 2]', 'null', '{"a": ', 'Here: {"a": 1}', '', '42']) expect(jsonFields(text), text).toEqual({});
  });
});
