import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveBinary } from '../../src/process/binary.js';
import { attemptStream, cliAvailable, manifestWith, oneStepPipeline, param, runAgentPipeline, startModelServer, type ModelServer } from './agents.js';

// OpenCode starts slowly (~3 s a run): allow for a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

const available = cliAvailable('opencode');

describe.skipIf(!available)('an adapter named opencode-*: an OpenCode fork, run through its own binary', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it('runs as OpenCode (no type given) with the binary the adapter names', async () => {
    // The fork's binary: the real OpenCode under another name, which only the adapter's `binary` points at.
    const forkDir = mkdtempSync(join(tmpdir(), 'wave-fork-'));
    const fork = join(forkDir, 'opencode-patched');
    symlinkSync(resolveBinary('opencode', process.env)!, fork);
    const adapter = `  opencode-patched: { binary: "${fork}", model: scripted, isolated: true, base_url: "${server.url}/s/shell/${param('echo from the fork')}/v1", api_key_env: OC_KEY, env: { OC_KEY: fake-key } }`;
    const run = await runAgentPipeline(manifestWith([adapter], '  agent: { adapter: opencode-patched }'), oneStepPipeline('agent'));
    expect(run.code, run.stderr).toBe(0);
    // OpenCode's own JSON stream: its bash tool ran the command.
    const calls = attemptStream(run, 'work', 'tool_use');
    expect(calls[0]?.part).toMatchObject({ tool: 'bash', state: { status: 'completed', input: { command: 'echo from the fork' } } });
    expect(calls[0]?.part.state.output).toContain('from the fork');
    expect(run.record.steps.work!.status).toBe('completed');
  });
});
