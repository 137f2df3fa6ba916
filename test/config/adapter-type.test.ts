import { describe, expect, it } from 'vitest';
import { adapterTypeOf } from '../../src/config/schema/adapter-type.js';

describe("an adapter's type from its name, as Wave's registry reads it", () => {
  it('opencode-* names are OpenCode forks, run by the OpenCode runner', () => {
    expect(adapterTypeOf('opencode-patched', { binary: 'opencode-patched' })).toBe('opencode');
    expect(adapterTypeOf('opencode-qwen', {})).toBe('opencode');
    // Only the prefix with its dash: a name that merely starts with the word is a plain program.
    expect(adapterTypeOf('opencodex', {})).toBe('process');
  });

  it('names are read case-insensitively, as Wave lowercases them', () => {
    expect(adapterTypeOf('Claude', {})).toBe('claude');
    expect(adapterTypeOf('OpenCode-GLM', {})).toBe('opencode');
  });

  it('an explicit type still wins over the name', () => {
    expect(adapterTypeOf('opencode-patched', { type: 'process' })).toBe('process');
  });
});
