import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliAvailable, oneStepPipeline, runAgentPipeline, startModelServer, type ModelServer } from './agents.js';

const available = cliAvailable('opencode') && cliAvailable('claude');

/** An opencode adapter line pointing at one scenario of the server's Chat Completions API. */
const openCodeAdapter = (name: string, baseUrl: string) =>
  `  ${name}: { type: opencode, binary: opencode, model: scripted, isolated: true, base_url: "${baseUrl}", api_key_env: OC_KEY, env: { OC_KEY: fake-key } }`;
const claudeAdapter = (name: string, baseUrl: string) =>
  `  ${name}: { type: claude, binary: claude, model: claude-test, isolated: true, base_url: "${baseUrl}", env: { ANTHROPIC_API_KEY: fake-key } }`;

function manifest(adapters: string[], personas: string): string {
  return `kind: WaveManifest
metadata: { name: e2e }
adapters:
${adapters.join('\n')}
personas:
${personas}
runtime:
  timeouts: { process_grace_seconds: 1 }
`;
}

describe.skipIf(!available)('opencode: real runs through OpenCode', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it('a rate-limited Claude step falls over to OpenCode and the run succeeds', async () => {
    const run = await runAgentPipeline(
      manifest(
        [claudeAdapter('claude', `${server.url}/s/http429/1`), openCodeAdapter('oc', `${server.url}/s/text/${encodeURIComponent('Answer from OpenCode.')}/v1`)],
        '  agent: { adapter: claude, system_prompt_file: personas/agent.md, fallbacks: [oc] }',
      ),
      oneStepPipeline('agent'),
      { 'personas/agent.md': 'PERSONA PROMPT MARKER\n' },
    );
    expect(run.code, run.stderr).toBe(0);
    const step = run.record.steps.work!;
    expect(step.status).toBe('completed');
    expect(step.attempts.map((a) => [a.adapter, a.failure?.class])).toEqual([
      ['claude', 'rate_limited'],
      ['oc', undefined],
    ]);
    const fallback = run.events.find((e) => e.type === 'step_fallback');
    expect(fallback).toMatchObject({ from: 'claude', to: 'oc', failure: { class: 'rate_limited' } });
    expect(readFileSync(join(run.project, '.wave', 'runs', run.record.id, 'steps', 'work', 'output.txt'), 'utf8')).toBe('Answer from OpenCode.');
    // OpenCode's tokens are the sum of its step_finish parts.
    expect(step.attempts[1]!.tokens.input).toBeGreaterThan(0);
    // The persona prompt reached OpenCode through AGENTS.md, which it puts into its system prompt.
    const chat = server.requests.filter((r) => r.scenario === 'text' && r.body);
    expect(JSON.stringify(chat.map((r) => r.body!.messages))).toContain('PERSONA PROMPT MARKER');
  });

  it('401: auth_failed, never retried', async () => {
    const run = await runAgentPipeline(
      manifest([openCodeAdapter('oc', `${server.url}/s/http401/v1`)], '  agent: { adapter: oc }'),
      oneStepPipeline('agent', '    retry: { max_attempts: 2, base_delay: 100ms }\n'),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure).toMatchObject({ class: 'auth_failed', message: 'invalid api key' });
    expect(run.record.steps.work!.attempts).toHaveLength(1);
  });

  it('429 with retry-after: OpenCode retries on its own, then rate_limited with the retry-after; Wave waits and retries', async () => {
    const run = await runAgentPipeline(
      manifest([openCodeAdapter('oc', `${server.url}/s/http429/1/v1`)], '  agent: { adapter: oc }'),
      oneStepPipeline('agent', '    retry: { max_attempts: 2, base_delay: 100ms }\n'),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure).toMatchObject({ class: 'rate_limited', retryAfterMs: 1000 });
    expect(run.record.steps.work!.attempts).toHaveLength(2);
    expect(run.events.find((e) => e.type === 'step_retrying')!.delayMs).toBeGreaterThanOrEqual(1000);
  });

  it('a stall after the first event: stalled by Wave\'s watchdog and failed', async () => {
    const run = await runAgentPipeline(
      manifest([openCodeAdapter('oc', `${server.url}/s/stall/v1`)], '  agent: { adapter: oc }').replace('runtime:\n', 'runtime:\n  stall_timeout: 3s\n'),
      oneStepPipeline('agent'),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe('stalled');
  });

  it('a truncated stream: OpenCode loops on its own, Wave\'s step timeout ends it and no process is left', async () => {
    const run = await runAgentPipeline(
      manifest([openCodeAdapter('oc', `${server.url}/s/truncated/v1`)], '  agent: { adapter: oc }'),
      oneStepPipeline('agent', '    timeout_minutes: 0.25\n'),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe('timeout');
    const pid = run.record.steps.work!.attempts[0]!.pid!;
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('a binary that is not installed: spawn_failed naming the npm package', async () => {
    const run = await runAgentPipeline(
      manifest([openCodeAdapter('oc', `${server.url}/s/text/v1`).replace('binary: opencode', 'binary: opencode-missing')], '  agent: { adapter: oc }'),
      oneStepPipeline('agent'),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe('spawn_failed');
    expect(run.record.steps.work!.failure?.hint).toContain('npm install --save-dev opencode-ai');
  });
});
