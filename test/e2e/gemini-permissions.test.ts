import { describe, expect, it, vi } from 'vitest';
import {
  agentManifest,
  ALL_OR_NOTHING,
  attemptFile,
  attemptStream,
  cliAvailable,
  expectAllOrNothingRecord,
  expectScopedRecord,
  permissionRunner,
  SCOPED,
  type AgentRun,
} from './agents.js';

// Gemini CLI starts in 2-3 s a run: allow for a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

const available = cliAvailable('gemini');

/** Gemini adapters, each pointing at one scenario of the server's Gemini API. */
const gemini = { manifest: agentManifest('gemini', 'gemini-2.5-pro') };

/** Gemini's own tool_result events of a step's first attempt: each call's status and output. */
function toolResults(run: AgentRun, stepId: string): Array<Record<string, any>> {
  return attemptStream(run, stepId, 'tool_result');
}

describe.skipIf(!available)("gemini: Wave's persona permissions, enforced by Gemini CLI's policy engine", () => {
  const runSteps = permissionRunner(gemini);

  it('allowed_tools ["*"] writes and runs; deny ["*"] refuses the same calls', async () => {
    const run = await runSteps(ALL_OR_NOTHING);
    expectAllOrNothingRecord(run);
    for (const step of ['nowriter', 'norunner']) {
      // Gemini's policy engine refuses the call: it comes back as an error and nothing changes.
      const results = toolResults(run, step);
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.status === 'error')).toBe(true);
    }
  });

  it('Write(.agents/output/*) lets Gemini write there and nowhere else; Bash(echo *) runs echo and refuses touch', async () => {
    const run = await runSteps(SCOPED);
    expectScopedRecord(run);
    expect(toolResults(run, 'outside')[0]?.status).toBe('error');
    expect(toolResults(run, 'echo')[0]).toMatchObject({ status: 'success' });
    expect(toolResults(run, 'echo')[0]?.output).toContain('hello');
    expect(toolResults(run, 'touch')[0]?.status).toBe('error');
    // Gemini loaded every rule of Wave's policy file (it reports a rule it refuses on stderr, and drops it).
    for (const step of ['inside', 'outside', 'echo', 'touch']) expect(attemptFile(run.project, run.record, step, 1, 'stderr')).not.toContain('Policy file error');
  });
});
