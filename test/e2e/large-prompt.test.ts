import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentManifest, claudeManifest, cliAvailable, manifestWith, runAgentPipeline, startModelServer, type ModelServer } from './agents.js';

// OpenCode and Gemini start slowly; a megabyte of prompt adds to each.
vi.setConfig({ testTimeout: 240_000 });

/** 1 MB of input: far past the 128 KiB Linux takes in one argument, ends marked so truncation shows. */
const BIG = `BIG-START\n${'All work and no play makes a long prompt. '.repeat(25_000)}`.slice(0, 1_000_000 - 'BIG-END'.length) + 'BIG-END';

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: work
    persona: agent
    # Gemini CLI now and then exits 0 without an answer on a busy machine (cause not found); a second attempt is
    # what a user's retry policy gives it, and the check below is about what reaches the model.
    retry: { max_attempts: 2, base_delay: 1ms }
    exec: { type: prompt, source: "Summarize this:\\n{{ input }}" }
`;

const CLIS: Array<[string, (server: ModelServer) => string]> = [
  ['claude', (server) => claudeManifest({ agent: `${server.url}/s/text` }, '  agent: { adapter: agent }')],
  ['codex', (server) => agentManifest('codex', 'gpt-5.5')({ agent: `${server.url}/s/text/v1` }, '  agent: { adapter: agent }')],
  ['gemini', (server) => agentManifest('gemini', 'gemini-2.5-pro')({ agent: `${server.url}/s/text` }, '  agent: { adapter: agent }')],
  [
    'opencode',
    (server) =>
      manifestWith(
        [`  agent: { type: opencode, binary: opencode, model: scripted, isolated: true, base_url: "${server.url}/s/text/v1", api_key_env: OC_KEY, env: { OC_KEY: fake-key } }`],
        '  agent: { adapter: agent }',
      ),
  ],
];

describe('a 1 MB prompt reaches each agent CLI whole (on stdin where it would be an argument)', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it.each(CLIS)('%s', async (cli, manifest) => {
    if (!cliAvailable(cli)) return;
    const before = server.requests.length;
    const run = await runAgentPipeline(manifest(server), PIPELINE, { 'big.txt': BIG }, ['--input-file', 'big.txt']);
    expect(run.code, `${run.stderr}\n${JSON.stringify(run.record.steps.work?.failure)}`).toBe(0);
    const bodies = server.requests.slice(before).map((r) => JSON.stringify(r.body ?? ''));
    // The whole input arrived in one request: its start, its end, and everything between.
    const whole = bodies.find((body) => body.includes('Summarize this:') && body.includes('BIG-END'));
    expect(whole, `requests: ${bodies.map((b) => b.length).join(', ')}`).toBeDefined();
    expect(whole).toContain('BIG-START');
    expect(whole!.length).toBeGreaterThan(BIG.length);
  });
});
