import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeManifest, cliAvailable, oneStepPipeline, runAgentPipeline, startModelServer, type AgentRun, type ModelServer } from './agents.js';

const available = cliAvailable('claude');

/** Two attempts per adapter, short backoff; a stall ends an attempt after 3 s without output. */
const RETRY = '    retry: { max_attempts: 2, base_delay: 100ms, backoff: fixed }\n';
const STALL = '  stall_timeout: 3s\n';

function stepEvents(run: AgentRun, type: string): Array<Record<string, any>> {
  return run.events.filter((e) => e.type === type);
}

describe.skipIf(!available)("claude: each fault ends with the right failure class and the policy's action", () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  const runScenario = (scenario: string, runtime = '', binary?: string) => {
    let manifest = claudeManifest({ agent: `${server.url}/s/${scenario}` }, '  agent: { adapter: agent }', runtime);
    if (binary) manifest = manifest.replace('binary: claude,', `binary: ${binary},`);
    return runAgentPipeline(manifest, oneStepPipeline('agent', RETRY));
  };

  it('429 with retry-after: rate_limited, waited for and retried, then failed (no fallback declared)', async () => {
    const run = await runScenario('http429/1');
    expect(run.code).toBe(1);
    const step = run.record.steps.work!;
    expect(step.failure?.class).toBe('rate_limited');
    expect(step.attempts).toHaveLength(2);
    const retrying = stepEvents(run, 'step_retrying');
    expect(retrying).toHaveLength(1);
    // Claude honoured retry-after: 1 itself; Wave waits at least that long before its own retry.
    expect(retrying[0]!.failure.retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect(retrying[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(run.events.some((e) => e.type === 'step_event' && e.event.kind === 'retry' && e.event.status === 429)).toBe(true);
  });

  it('500: server_error, retried, then failed', async () => {
    const run = await runScenario('http500');
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe('server_error');
    expect(run.record.steps.work!.attempts).toHaveLength(2);
    expect(stepEvents(run, 'step_retrying')).toHaveLength(1);
  });

  it('401: auth_failed, never retried', async () => {
    const run = await runScenario('http401');
    expect(run.code).toBe(1);
    const step = run.record.steps.work!;
    expect(step.failure?.class).toBe('auth_failed');
    expect(step.failure?.hint).toContain('API key');
    expect(step.attempts).toHaveLength(1);
    expect(stepEvents(run, 'step_retrying')).toHaveLength(0);
  });

  it('a stream that stalls after its first event: stalled, retried, then failed; no process is left', async () => {
    const run = await runScenario('stall', STALL);
    expect(run.code).toBe(1);
    const step = run.record.steps.work!;
    expect(step.failure?.class).toBe('stalled');
    expect(step.attempts).toHaveLength(2);
    for (const attempt of step.attempts) {
      expect(attempt.pid).toBeGreaterThan(0);
      expect(() => process.kill(attempt.pid!, 0)).toThrow();
    }
  });

  it('a binary that is not installed: spawn_failed naming the npm package, not retried', async () => {
    const run = await runScenario('text', '', 'claude-not-installed-here');
    expect(run.code).toBe(1);
    const step = run.record.steps.work!;
    expect(step.failure?.class).toBe('spawn_failed');
    expect(step.failure?.hint).toContain('npm install --save-dev @anthropic-ai/claude-code');
    expect(step.attempts).toHaveLength(1);
  });
});
