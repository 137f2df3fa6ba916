import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentManifest, claudeManifest, cliAvailable, manifestWith, oneStepPipeline, runAgentPipeline, startModelServer, type AgentRun, type ModelServer } from '../e2e/agents.js';

// Each test runs a real agent CLI two times; Gemini takes seconds a launch on a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

/** Two attempts, a short fixed backoff. */
const TWO_ATTEMPTS = '    retry: { max_attempts: 2, base_delay: 100ms, backoff: fixed }\n';
/** A stall ends an attempt after 3 s without output; Gemini CLI, silent for seconds while it starts, gets 20 s. */
const STALL = '  stall_timeout: 3s\n';
const GEMINI_STALL = '  stall_timeout: 20s\n';

let server: ModelServer;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server?.close());

const sessionEvents = (run: AgentRun) => run.events.filter((e) => e.type === 'session_continued' || e.type === 'session_fresh');
const geminiManifest = agentManifest('gemini', 'gemini-2.5-pro');

/** The run's two attempts stalled, and the second continued the session the first reported before it was stopped. */
function expectStalledThenContinued(run: AgentRun): void {
  expect(run.code, run.stderr).toBe(1);
  const attempts = run.record.steps.work!.attempts;
  // Both stalled: the CLI took the session back (no refused resume, no third attempt).
  expect(attempts.map((a) => [a.attempt, a.continuedFrom, a.failure?.class])).toEqual([
    [1, undefined, 'stalled'],
    [2, 1, 'stalled'],
  ]);
  expect(attempts[0]!.sessionId).toBeTruthy();
  expect(sessionEvents(run)).toMatchObject([{ type: 'session_continued', attempt: 2, from: 1, sessionId: attempts[0]!.sessionId }]);
}

describe.skipIf(!cliAvailable('claude'))('claude: a stalled attempt keeps its session', () => {
  it('the retry of a stalled attempt continues the session Claude reported before it was stopped', async () => {
    const run = await runAgentPipeline(
      claudeManifest({ agent: `${server.url}/s/stall/claude-stall` }, '  agent: { adapter: agent }', STALL),
      oneStepPipeline('agent', TWO_ATTEMPTS),
    );
    expectStalledThenContinued(run);
  });
});

describe.skipIf(!cliAvailable('gemini'))('gemini: only a session the CLI saved is continued', () => {
  it('after an HTTP 500 Gemini kept no turn: the retry starts fresh, says why, and max_attempts 2 means two launches', async () => {
    const run = await runAgentPipeline(geminiManifest({ agent: `${server.url}/s/http500/gemini-500` }, '  agent: { adapter: agent }'), oneStepPipeline('agent', TWO_ATTEMPTS));
    expect(run.code, run.stderr).toBe(1);
    const attempts = run.record.steps.work!.attempts;
    expect(attempts.map((a) => [a.attempt, a.continuedFrom, a.failure?.class])).toEqual([
      [1, undefined, 'server_error'],
      [2, undefined, 'server_error'],
    ]);
    expect(sessionEvents(run)).toMatchObject([
      {
        type: 'session_fresh',
        attempt: 2,
        reason: `attempt 1's session ${attempts[0]!.sessionId} was not saved: Gemini CLI kept no message of it (it drops the turn a failed request began)`,
      },
    ]);
  });

  it('the retry of a stalled attempt continues the session Gemini saved before it was stopped', async () => {
    const run = await runAgentPipeline(
      geminiManifest({ agent: `${server.url}/s/stall/gemini-stall` }, '  agent: { adapter: agent }', GEMINI_STALL),
      oneStepPipeline('agent', TWO_ATTEMPTS),
    );
    expectStalledThenContinued(run);
  });
});

describe.skipIf(!cliAvailable('opencode'))("opencode: the live cost is the run's cost", () => {
  it('a model without prices in its config: no $0 on the way, and the live figure at the end is the one run.json keeps', async () => {
    const adapter = (prices: string) =>
      `  agent: { type: opencode, binary: opencode, model: scripted, isolated: true, base_url: "${server.url}/s/text/opencode-cost/v1", api_key_env: OC_KEY, env: { OC_KEY: fake-key }${prices} }`;
    const free = await runAgentPipeline(manifestWith([adapter('')], '  agent: { adapter: agent }'), oneStepPipeline('agent'));
    expect(free.code, free.stderr).toBe(0);
    const freeTokens = free.events.filter((e) => e.type === 'step_tokens');
    expect(freeTokens.length).toBeGreaterThan(0);
    // Served on this machine and priced by nobody: no cost at all, live or recorded.
    expect(freeTokens.filter((e) => e.costUsd !== undefined)).toEqual([]);
    expect(free.record.steps.work!.costUsd).toBeUndefined();

    const priced = await runAgentPipeline(manifestWith([adapter(', prices: { input: 1000000, output: 1000000 }')], '  agent: { adapter: agent }'), oneStepPipeline('agent'));
    expect(priced.code, priced.stderr).toBe(0);
    const live = priced.events.filter((e) => e.type === 'step_tokens').map((e) => e.costUsd as number | undefined);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((cost) => cost !== undefined && cost > 0)).toBe(true);
    expect(live.at(-1)).toBe(priced.record.steps.work!.costUsd);
  });
});
