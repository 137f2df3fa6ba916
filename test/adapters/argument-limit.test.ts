import { describe, expect, it } from 'vitest';
import { PROMPT_ARGUMENT_BYTES, promptAsWords } from '../../src/process/argument-limit.js';
import { buildGeminiArgs, geminiPrompt } from '../../src/adapters/gemini/invocation.js';
import type { AdapterRunConfig } from '../../src/adapters/types.js';

const LINE = 'All work and no play — 数据库 and -flags, 007 and 1e3 stay as written. ';

describe('a prompt cut into words that fit one argument each', () => {
  it('joins back to the prompt with one space, every piece under the argument limit, none read as an option or a number', () => {
    const prompt = `BIG-START ${LINE.repeat(20_000)}BIG-END`;
    const pieces = promptAsWords(prompt)!;
    expect(pieces.join(' ')).toBe(prompt);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) {
      expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(PROMPT_ARGUMENT_BYTES);
      expect(piece.startsWith('-')).toBe(false);
      expect(Number.isNaN(Number(piece.trim()))).toBe(true);
    }
  });

  it('keeps runs of spaces, which a split at one of them would otherwise lose', () => {
    const prompt = `${'word   '.repeat(40_000)}end`;
    expect(promptAsWords(prompt)!.join(' ')).toBe(prompt);
  });

  it('gives up on text with no space where a cut is needed, and on more than the arguments can hold', () => {
    expect(promptAsWords('x'.repeat(100_000))).toBeUndefined();
    expect(promptAsWords(LINE.repeat(40_000))).toBeUndefined();
  });
});

describe('how Gemini gets a large prompt', () => {
  const config = (prompt: string) => ({ prompt, adapter: { name: 'gemini', type: 'gemini', env: {}, isolated: true }, env: {} }) as unknown as AdapterRunConfig;

  it('as its words after the options when they can carry it, on stdin when not, with -p when it fits', () => {
    const prompt = LINE.repeat(20_000);
    const args = buildGeminiArgs(config(prompt));
    expect(args).not.toContain('-p');
    expect(args.slice(args.indexOf('--skip-trust') + 1).join(' ')).toBe(prompt);
    expect(geminiPrompt(config('y'.repeat(100_000)))).toEqual({ via: 'stdin' });
    expect(buildGeminiArgs(config('small')).slice(0, 2)).toEqual(['-p', 'small']);
  });
});
