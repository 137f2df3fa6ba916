import { describe, expect, it } from 'vitest';
import { isModelTier, modelForCli, modelOn, resolveTier } from '../../src/core/models/model-tiers.js';
import type { ResolvedAdapter } from '../../src/core/resolved-adapter.js';

const adapter = (fields: Partial<ResolvedAdapter>): ResolvedAdapter => ({ name: 'a', type: 'claude', env: {}, isolated: false, ...fields });

describe("Wave's model tiers", () => {
  it('only the exact names cheapest, balanced and strongest are tiers; anything else is a model name', () => {
    expect(['cheapest', 'balanced', 'strongest'].every(isModelTier)).toBe(true);
    for (const model of ['fastest', 'Cheapest', 'cheap', 'claude-haiku-4-5', '', undefined]) expect(isModelTier(model)).toBe(false);
  });

  it("the adapter's tier_models first, then Wave's Claude defaults, then balanced as the adapter's own model", () => {
    expect(resolveTier('cheapest', { type: 'claude', tierModels: { cheapest: 'claude-x' } })).toEqual({ model: 'claude-x' });
    expect(resolveTier('cheapest', { type: 'claude' })).toEqual({ model: 'claude-haiku-4-5' });
    expect(resolveTier('strongest', { type: 'claude' })).toEqual({ model: 'claude-opus-4' });
    expect(resolveTier('balanced', { type: 'claude', defaultModel: 'sonnet' })).toEqual({ model: 'sonnet' });
    // No default model: the CLI's own.
    expect(resolveTier('balanced', { type: 'claude' })).toEqual({ model: undefined });
  });

  it("Wave's defaults are Claude models: on another CLI cheapest and strongest need tier_models", () => {
    expect(resolveTier('cheapest', { type: 'opencode' })).toEqual({ unmapped: true });
    expect(resolveTier('strongest', { type: 'gemini', defaultModel: 'gemini-2.5-pro' })).toEqual({ unmapped: true });
    expect(resolveTier('balanced', { type: 'opencode', defaultModel: 'ollama/qwen' })).toEqual({ model: 'ollama/qwen' });
    expect(resolveTier('strongest', { type: 'codex', tierModels: { strongest: 'gpt-5' } })).toEqual({ model: 'gpt-5' });
  });

  it('"default" means the CLI\'s own model on OpenCode and Gemini, as Wave runs them without --model', () => {
    expect(modelForCli('default', 'opencode')).toBeUndefined();
    expect(modelForCli('default', 'gemini')).toBeUndefined();
    expect(modelForCli('default', 'claude')).toBe('default');
    expect(modelOn('cheapest', adapter({ type: 'opencode', tierModels: { cheapest: 'default' } }))).toEqual({ tier: 'cheapest' });
  });

  it("a step or persona model on its adapter: a literal passes, a tier resolves, no model takes the adapter's", () => {
    const claude = adapter({ model: 'sonnet', tierModels: { strongest: 'opus-x' } });
    expect(modelOn('my-model', claude)).toEqual({ model: 'my-model' });
    expect(modelOn('strongest', claude)).toEqual({ model: 'opus-x', tier: 'strongest' });
    expect(modelOn('cheapest', claude)).toEqual({ model: 'claude-haiku-4-5', tier: 'cheapest' });
    expect(modelOn('balanced', claude)).toEqual({ model: 'sonnet', tier: 'balanced' });
    expect(modelOn(undefined, claude)).toEqual({ model: 'sonnet' });
    expect(modelOn('cheapest', adapter({ type: 'codex' }))).toEqual({ unmapped: 'cheapest' });
  });
});
