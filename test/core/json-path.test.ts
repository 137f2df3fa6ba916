import { describe, expect, it } from 'vitest';
import { JsonPathError, jsonPathValues, parseJsonPath, takesEachItem } from '../../src/core/json-path.js';

const DOC = {
  pr_url: 'https://github.com/o/r/pull/7',
  number: 7,
  ratio: 0.5,
  draft: false,
  comment: { url: 'https://github.com/o/r/pull/7#c1', nested: { deep: 'yes' } },
  items: [
    { url: 'https://x/1', title: 'one' },
    { url: 'https://x/2', title: 'two' },
  ],
  names: ['a', 'b'],
  empty: [],
  none: null,
};

const values = (path: string) => jsonPathValues(DOC, parseJsonPath(path));

describe('Wave JSON paths', () => {
  it('read a key, a nested key and an item, with or without the leading dot', () => {
    expect(values('.pr_url')).toEqual(['https://github.com/o/r/pull/7']);
    expect(values('comment.url')).toEqual(['https://github.com/o/r/pull/7#c1']);
    expect(values('.comment.nested.deep')).toEqual(['yes']);
    expect(values('.items[1].title')).toEqual(['two']);
  });

  it('render values as Wave does: numbers and booleans written out, objects and lists as JSON', () => {
    expect(values('.number')).toEqual(['7']);
    expect(values('.ratio')).toEqual(['0.5']);
    expect(values('.draft')).toEqual(['false']);
    expect(values('.comment.nested')).toEqual(['{"deep":"yes"}']);
    expect(values('.names')).toEqual(['["a","b"]']);
  });

  it('take every item with [*] (and with [], read as [*]), whole or at a sub-path', () => {
    expect(values('.items[*].url')).toEqual(['https://x/1', 'https://x/2']);
    expect(values('.items[].title')).toEqual(['one', 'two']);
    expect(values('.names[*]')).toEqual(['a', 'b']);
    expect(values('.empty[*].url')).toEqual([]);
    expect(takesEachItem(parseJsonPath('.items[*].url'))).toBe(true);
    expect(takesEachItem(parseJsonPath('.items[0].url'))).toBe(false);
  });

  it.each([
    ['.nope', 'key "nope" not found'],
    ['.pr_url.x', 'cannot look up "x" in a value that is not an object'],
    ['.comment[0]', 'the value at "comment" is not a list'],
    ['.items[5].url', 'index 5 is past the end of "items" (2 items)'],
    ['.none', 'the value at the path is null'],
    ['.items[*]', 'item [0] is not text'],
    ['.items[*].nope', 'item [0]: key "nope" not found'],
    ['.comment[*]', 'the value at "comment" is not a list'],
  ])('%s fails: %s', (path, message) => {
    expect(() => values(path)).toThrow(new JsonPathError(message));
  });

  it('say which list was empty when its first item is asked for', () => {
    const error = (() => {
      try {
        values('.empty[0].url');
      } catch (e) {
        return e as JsonPathError;
      }
    })();
    expect(error?.message).toBe('no items in empty');
    expect(error?.emptyList).toBe('empty');
  });

  it.each([
    ['', 'the path is empty'],
    ['.', 'the path is only a dot'],
    ['.a..b', '`` is not a key, key[N] or key[*]'],
    ['.a[x]', '`a[x]` is not a key, key[N] or key[*]'],
    ['.a b', '`a b` is not a key, key[N] or key[*]'],
    ['.a[*].b[*]', 'a path takes one [*] at most'],
  ])('refuse %j: %s', (path, message) => {
    expect(() => parseJsonPath(path)).toThrow(new JsonPathError(message));
  });
});
