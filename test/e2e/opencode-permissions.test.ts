import { describe, expect, it, vi } from 'vitest';
import { agentManifest, ALL_OR_NOTHING, attemptStream, cliAvailable, expectAllOrNothingRecord, expectScopedRecord, permissionRunner, SCOPED, type AgentRun } from './agents.js';

// OpenCode starts slowly (~3 s a run): allow for a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

const available = cliAvailable('opencode');

/** OpenCode adapters, each pointing at one scenario of the server's Chat Completions API. */
const openCode = { manifest: agentManifest('opencode', 'scripted', ', api_key_env: OC_KEY, env: { OC_KEY: fake-key }'), api: '/v1' };

/** OpenCode's own tool_use events of a step's first attempt. */
function toolCalls(run: AgentRun, stepId: string): Array<Record<string, any>> {
  return attemptStream(run, stepId, 'tool_use').map((o) => o.part);
}

describe.skipIf(!available)("opencode: Wave's persona permissions, enforced by OpenCode itself", () => {
  const runSteps = permissionRunner(openCode);

  it('allowed_tools ["*"] writes and runs; deny ["*"] refuses the same calls', async () => {
    const run = await runSteps(ALL_OR_NOTHING);
    expectAllOrNothingRecord(run);
    // OpenCode offers no tool the rules deny outright: the model's call comes back as an error and nothing changes.
    for (const step of ['nowriter', 'norunner']) expect(toolCalls(run, step).every((part) => part.state?.status === 'error')).toBe(true);
  });

  it('Write(.agents/output/*) lets OpenCode write there and nowhere else; Bash(echo *) runs echo and refuses touch', async () => {
    const run = await runSteps(SCOPED);
    expectScopedRecord(run);
    expect(toolCalls(run, 'outside')[0]?.state?.status).toBe('error');
    expect(toolCalls(run, 'echo')[0]).toMatchObject({ tool: 'bash', state: { status: 'completed' } });
    expect(toolCalls(run, 'echo')[0]?.state?.output).toContain('hello');
    expect(toolCalls(run, 'touch')[0]).toMatchObject({ tool: 'bash', state: { status: 'error', input: { command: 'touch made.txt' } } });
  });
});
