import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namespacesAvailable, startRemoteModelServer, type RemoteModelServer } from '../support/remote-model-server.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: ask
    adapter: model
    exec: { source: "Say hello." }
`;

// The installed `wave` (bin/wave.cjs, the bundle): the price table stays out of the bundle and loads on first use.
// The server runs on another host (a network namespace): one on this machine, at any of its addresses, is local to Wave.
describe.skipIf(!namespacesAvailable())('the public price table, through the installed CLI', () => {
  let server: RemoteModelServer;
  beforeAll(async () => (server = await startRemoteModelServer()));
  afterAll(() => server?.close());

  const run = async (adapter: string) => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE, 'wave.yaml': `kind: WaveManifest\nmetadata: { name: t }\nadapters:\n  model: ${adapter}\n` });
    const result = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    return latestRun(project).steps.ask!;
  };

  it('prices a known model the server reports no cost for, from its public price', async () => {
    const step = await run(`{ type: llm, base_url: "${server.url}/text/v1", model: gpt-5 }`);
    expect(step.tokens.input + step.tokens.output).toBeGreaterThan(0);
    // gpt-5 lists at 1.25 US dollars per million input tokens and 10 per million output tokens.
    expect(step.costUsd).toBeCloseTo((step.tokens.input * 1.25 + step.tokens.output * 10) / 1e6, 12);
  });

  it("takes the manifest's prices over the public ones", async () => {
    const step = await run(`{ type: llm, base_url: "${server.url}/text/v1", model: gpt-5, prices: { input: 1000000, output: 0 } }`);
    expect(step.costUsd).toBe(step.tokens.input);
  });

  it('prices no model it does not know', async () => {
    const step = await run(`{ type: llm, base_url: "${server.url}/text/v1", model: scripted-model }`);
    expect(step.costUsd).toBeUndefined();
  });
});
