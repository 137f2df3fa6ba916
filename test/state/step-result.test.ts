import { describe, expect, it } from 'vitest';
import { RESULT_CHARS, RESULT_LINES, stepResult } from '../../src/state/record/step-result.js';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('stepResult', () => {
  it("keeps an agent's answer from its start and a command's output from its end, blank lines left out", () => {
    expect(stepResult('prompt', `${numbered(10)}\n`)).toEqual({ kind: 'answer', lines: numbered(RESULT_LINES).split('\n'), total: 10, cut: true });
    expect(stepResult('command', numbered(10))).toEqual({ kind: 'output', lines: ['line 5', 'line 6', 'line 7', 'line 8', 'line 9', 'line 10'], total: 10, cut: true });
    expect(stepResult('prompt', 'First.\n\n\nSecond.\n')).toEqual({ kind: 'answer', lines: ['First.', 'Second.'], total: 2, cut: false });
  });

  it("shows a JSON output's top-level fields, strings as they are and the rest as compact JSON", () => {
    expect(stepResult('command', 'ignored', { document: 'README.md', parts: [1, 2], nested: { a: 'x\ny' }, none: null })).toEqual({
      kind: 'fields',
      lines: ['document: README.md', 'parts: [1,2]', 'nested: {"a":"x\\ny"}', 'none: null'],
      total: 4,
      cut: false,
    });
    const many = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, i]));
    expect(stepResult('prompt', '', many)).toMatchObject({ kind: 'fields', total: 9, cut: true, lines: ['f0: 0', 'f1: 1', 'f2: 2', 'f3: 3', 'f4: 4', 'f5: 5'] });
    // No fields: the text is shown.
    expect(stepResult('command', '7', {})).toMatchObject({ kind: 'output', lines: ['7'] });
  });

  it('keeps within its character budget: long lines are cut, and a command keeps its last lines whole first', () => {
    const long = stepResult('prompt', 'y'.repeat(1000))!;
    expect(long.lines).toEqual([`${'y'.repeat(159)}…`]);
    expect(long.cut).toBe(true);
    const wide = Array.from({ length: 6 }, (_, i) => `${i}`.repeat(150)).join('\n');
    const output = stepResult('command', wide)!;
    expect(output.lines.join('').length).toBeLessThanOrEqual(RESULT_CHARS);
    // The last line (the verdict) is whole; the budget runs out towards the start.
    expect(output.lines.at(-1)).toBe('5'.repeat(150));
    expect(output.lines[0]).toMatch(/^3+…$/);
    expect(output.cut).toBe(true);
  });

  it('drops terminal colour codes and says nothing of an empty result', () => {
    expect(stepResult('command', '\x1b[32mok\x1b[0m 3 passed')!.lines).toEqual(['ok 3 passed']);
    expect(stepResult('command', '  \n\n')).toBeUndefined();
    expect(stepResult('prompt', '')).toBeUndefined();
  });
});
