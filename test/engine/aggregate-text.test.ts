import { describe, expect, it } from 'vitest';
import { aggregateText } from '../../src/engine/steps/aggregate-step.js';

describe("an aggregate's strategies, as Wave merges", () => {
  it('merge_arrays flattens the array elements one level and keeps the others', () => {
    expect(aggregateText('[[1, 2], [3], 4]', { strategy: 'merge_arrays' })).toBe('[1,2,3,4]');
  });

  it('merge_arrays with no array among the elements keeps the text as it is', () => {
    const objects = '[{"findings": 1}, {"findings": 2}]';
    expect(aggregateText(objects, { strategy: 'merge_arrays' })).toBe(objects);
  });

  it("merge_arrays with a key concatenates each element's array under it; a null slot or a missing key fails naming the element", () => {
    expect(aggregateText('[{"f": [1]}, {"f": [2, 3]}]', { strategy: 'merge_arrays', key: 'f' })).toBe('[1,2,3]');
    expect(() => aggregateText('[{"f": [1]}, null]', { strategy: 'merge_arrays', key: 'f' })).toThrow('merge_arrays failed: element 1: key "f" not found or not an array');
  });

  it('merge_arrays fails on text that is no JSON array, saying what it got', () => {
    expect(() => aggregateText('{{ scan.output }}', { strategy: 'merge_arrays' })).toThrow(/^merge_arrays failed: cannot parse as JSON array: .* \(raw: \{\{ scan\.output \}\}\)$/);
    expect(() => aggregateText('{"a": 1}', { strategy: 'merge_arrays' })).toThrow('merge_arrays failed: cannot parse as JSON array (raw: {"a": 1})');
  });

  it('concat and reduce keep the text as it is (reduce reduces nothing in Wave either)', () => {
    for (const strategy of ['concat', 'reduce'] as const) expect(aggregateText('[1] and more', { strategy })).toBe('[1] and more');
  });
});
