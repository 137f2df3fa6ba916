import { describe, expect, it } from 'vitest';
import { cutToWidth, displayWidth } from '../../src/report/columns.js';

describe('displayWidth', () => {
  it.each([
    ['plain', 5],
    ['设置', 4],
    ['ok 👍', 5],
    ['👩‍💻', 2],
    ['e\u0301', 1],
  ])('%j takes %i columns', (text, columns) => {
    expect(displayWidth(text)).toBe(columns);
  });
});

describe('cutToWidth', () => {
  it('keeps a text that fits', () => {
    expect(cutToWidth('数据库', 6)).toBe('数据库');
  });

  it('cuts wide characters by the columns they take, leaving one for the ellipsis', () => {
    expect(cutToWidth('数据库连接设置', 7)).toBe('数据库…');
    expect(cutToWidth('数据库连接设置', 8)).toBe('数据库…');
  });

  it('never splits an emoji sequence or a letter from its accent', () => {
    expect(cutToWidth('👩‍💻👩‍💻👩‍💻', 4)).toBe('👩‍💻…');
    expect(cutToWidth('cafe\u0301 au lait', 5)).toBe('cafe\u0301…');
  });

  it('is just the ellipsis when not even one character fits beside it', () => {
    expect(cutToWidth('设置', 1)).toBe('…');
  });
});
