import { describe, expect, it } from 'vitest';
import { hostname, networkInterfaces } from 'node:os';
import { attemptCost, catalogCost, servedLocally } from '../../src/core/models/attempt-cost.js';
import type { ResolvedAdapter } from '../../src/core/resolved-adapter.js';

const adapter = (type: ResolvedAdapter['type'], extra: Partial<ResolvedAdapter> = {}): ResolvedAdapter => ({ name: type, type, env: {}, isolated: false, ...extra });
const tokens = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({ input, output, cacheRead, cacheWrite });

// Public list prices, US dollars per million tokens, as the bundled table has them (short-context tier).
const SONNET = { input: 3, output: 15, cacheRead: 0.3 };
const GPT5 = { input: 1.25, output: 10 };
const GEMINI_PRO = { input: 1.25, output: 10 };

describe('attemptCost', async () => {
  it('takes what the CLI reported over every table', async () => {
    expect(await attemptCost(tokens(1000, 100), 0.5, adapter('claude', { prices: { input: 1 } }), 'claude-sonnet-4-5')).toBe(0.5);
  });

  it("takes the manifest's prices over the public table", async () => {
    expect(await attemptCost(tokens(1_000_000, 0), undefined, adapter('claude', { prices: { input: 1 } }), 'claude-sonnet-4-5')).toBe(1);
  });

  it('prices a known model from the public table when neither the CLI nor the manifest does', async () => {
    expect(await attemptCost(tokens(1000, 100), undefined, adapter('claude'), 'claude-sonnet-4-5')).toBeCloseTo((1000 * SONNET.input + 100 * SONNET.output) / 1e6, 10);
    expect(await attemptCost(tokens(1000, 100), undefined, adapter('codex'), 'gpt-5')).toBeCloseTo((1000 * GPT5.input + 100 * GPT5.output) / 1e6, 10);
    expect(await attemptCost(tokens(1000, 100), undefined, adapter('gemini'), 'gemini-2.5-pro')).toBeCloseTo((1000 * GEMINI_PRO.input + 100 * GEMINI_PRO.output) / 1e6, 10);
  });

  it("counts cached tokens at the cache rate, Wave's uncached input at the input rate", async () => {
    expect(await attemptCost(tokens(1000, 0, 10_000), undefined, adapter('claude'), 'claude-sonnet-4-5')).toBeCloseTo((1000 * SONNET.input + 10_000 * SONNET.cacheRead) / 1e6, 10);
  });

  it("reads OpenCode's provider/model names", async () => {
    expect(await catalogCost(tokens(1000, 100), 'anthropic/claude-sonnet-4-5', 'opencode')).toBeCloseTo((1000 * SONNET.input + 100 * SONNET.output) / 1e6, 10);
  });

  it('uses the adapter model when the step names none', async () => {
    expect(await attemptCost(tokens(1000, 0), undefined, adapter('codex', { model: 'gpt-5' }), undefined)).toBeCloseTo((1000 * GPT5.input) / 1e6, 10);
  });

  it('prices nothing for an unknown model, a model served on this machine, or no tokens', async () => {
    expect(await attemptCost(tokens(1000, 100), undefined, adapter('claude'), 'claude-test')).toBeUndefined();
    expect(await attemptCost(tokens(1000, 100), undefined, adapter('claude', { baseUrl: 'http://127.0.0.1:8080' }), 'claude-sonnet-4-5')).toBeUndefined();
    expect(await attemptCost(tokens(1000, 100), undefined, adapter('llm', { baseUrl: 'http://localhost:11434/v1' }), 'gpt-5')).toBeUndefined();
    expect(await attemptCost(tokens(0, 0), undefined, adapter('claude'), 'claude-sonnet-4-5')).toBeUndefined();
  });

  it('prices a known model behind another server (a gateway) from the public table', async () => {
    expect(await attemptCost(tokens(1000, 0), undefined, adapter('codex', { baseUrl: 'https://gateway.example.com/v1' }), 'gpt-5')).toBeCloseTo((1000 * GPT5.input) / 1e6, 10);
  });
});

describe('a model served on this machine', () => {
  it('is every spelling of loopback, the unspecified address, and the machine’s own names and addresses', () => {
    for (const url of [
      'http://localhost:1/v1',
      'http://api.localhost',
      'http://127.1.2.3',
      'http://[::1]:8080',
      'http://0.0.0.0:11434',
      'http://[::]:1',
      'http://[::ffff:127.0.0.1]:1',
      `http://${hostname()}:1`,
    ]) {
      expect(servedLocally([url]), url).toBe(true);
    }
    const own = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && !entry.internal && entry.family === 'IPv4');
    if (own) expect(servedLocally([`http://${own.address}:8080/v1`])).toBe(true);
    for (const url of ['https://api.anthropic.com', 'http://10.0.0.1:1', 'not a url']) expect(servedLocally([url]), url).toBe(false);
    expect(servedLocally([])).toBe(false);
  });

  it('costs nothing, even when the CLI reports a price of its own; elsewhere the reported price is kept, rounded', async () => {
    expect(await attemptCost(tokens(1000, 100), 0.0123, adapter('claude'), 'claude-sonnet-4-5', ['http://0.0.0.0:9000'])).toBeUndefined();
    expect(await attemptCost(tokens(1000, 100), 0.0011099999999999999, adapter('codex'), 'gpt-5', ['https://api.openai.com/v1'])).toBe(0.00111);
    // A refused request reports $0 and no tokens: no cost to show, not $0.0000.
    expect(await attemptCost(tokens(0, 0), 0, adapter('claude'), 'claude-sonnet-4-5', ['https://api.anthropic.com'])).toBeUndefined();
    // The manifest's own prices still apply to a local model.
    expect(await attemptCost(tokens(1_000_000, 0), 0.5, adapter('claude', { prices: { input: 2 } }), 'local', ['http://127.0.0.1:1'])).toBe(2);
  });
});
