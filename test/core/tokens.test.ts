import { describe, expect, it } from 'vitest';
import { addTokens, NO_TOKENS, priceTableCost } from '../../src/core/models/tokens.js';

describe('tokens and cost', () => {
  it('adds token counts field by field, leaving NO_TOKENS untouched', () => {
    const sum = addTokens({ ...NO_TOKENS }, { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 });
    expect(addTokens(sum, sum)).toEqual({ input: 2, output: 4, cacheRead: 6, cacheWrite: 8 });
    expect(NO_TOKENS).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(Object.isFrozen(NO_TOKENS)).toBe(true);
  });

  it('prices each kind of token per million, and is undefined without a price table', () => {
    const tokens = { input: 2_000_000, output: 1_000_000, cacheRead: 500_000, cacheWrite: 0 };
    expect(priceTableCost(tokens, { input: 3, output: 15, cache_read: 0.3 })).toBeCloseTo(6 + 15 + 0.15);
    expect(priceTableCost(tokens, {})).toBe(0);
    expect(priceTableCost(tokens, undefined)).toBeUndefined();
  });
});
