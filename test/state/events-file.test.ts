import { describe, expect, it } from 'vitest';
import { filledLineCount, parseEventLines } from '../../src/state/events-file.js';
import { EVERY_EVENT } from './event-samples.js';

describe('filledLineCount', () => {
  it('counts the lines that hold anything, never fewer than the events parsed from the same text', () => {
    const lines = EVERY_EVENT.slice(0, 3).map((event) => JSON.stringify(event));
    const texts = ['', '\n\n', `${lines.join('\n')}\n`, `${lines[0]}\n\n${lines[1]}`, `${lines[0]}\nnot json\n${lines[1]}\n{"v":1,"ts":"2024-05-0`, ' \n'];
    expect(texts.map(filledLineCount)).toEqual([0, 0, 3, 2, 4, 1]);
    for (const text of texts) expect(filledLineCount(text)).toBeGreaterThanOrEqual(parseEventLines(text).length);
  });
});
