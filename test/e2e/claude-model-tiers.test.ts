import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliAvailable, manifestWith, runAgentPipeline, startModelServer, type ModelServer } from './agents.js';

const available = cliAvailable('claude');

describe.skipIf(!available)('claude: model tiers reach Claude Code as the models they stand for', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it("a persona's tier takes Wave's default, a step's tier the adapter's tier_models; no tier name reaches the model API", async () => {
    // Each adapter points at its own scenario name, so the server's log tells the steps apart.
    const adapter = (name: string, extra = '') =>
      `  ${name}: { type: claude, binary: claude, model: claude-test, isolated: true, base_url: "${server.url}/s/text/${name}", env: { ANTHROPIC_API_KEY: fake-key }${extra} }`;
    const manifest = manifestWith(
      [adapter('plain'), adapter('mapped', ', tier_models: { strongest: claude-test-strong }')],
      '  fast: { adapter: plain, model: cheapest }\n  mapped: { adapter: mapped }\n  middle: { adapter: plain, model: balanced }',
    );
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: fast, persona: fast, exec: { type: prompt, source: "Answer." } }
  - { id: strong, persona: mapped, model: strongest, exec: { type: prompt, source: "Answer." } }
  - { id: middle, persona: middle, exec: { type: prompt, source: "Answer." } }
`;
    const run = await runAgentPipeline(manifest, pipeline);
    expect(run.code, run.stderr).toBe(0);
    const modelsAsked = (scenarioParam: string) =>
      server.requests.filter((r) => r.body && (r.url ?? '').includes(`/s/text/${scenarioParam}/`)).map((r) => (r.body as { model?: string }).model);
    expect(new Set(modelsAsked('plain'))).toEqual(new Set(['claude-haiku-4-5', 'claude-test']));
    expect(new Set(modelsAsked('mapped'))).toEqual(new Set(['claude-test-strong']));
    // Wave's record shows the model each attempt ran with.
    expect(run.record.steps.fast!.attempts[0]!.model).toBe('claude-haiku-4-5');
    expect(run.record.steps.strong!.attempts[0]!.model).toBe('claude-test-strong');
    // balanced is the adapter's own model.
    expect(run.record.steps.middle!.attempts[0]!.model).toBe('claude-test');
    const everyModel = server.requests.filter((r) => r.body).map((r) => (r.body as { model?: string }).model);
    expect(everyModel.some((m) => m === 'cheapest' || m === 'balanced' || m === 'strongest')).toBe(false);
  });
});
