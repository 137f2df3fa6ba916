import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  artifactPath,
  attemptFile,
  cliAvailable,
  manifestWith,
  oneStepPipeline,
  param,
  runAgentPipeline,
  startModelServer,
  type ModelServer,
  WRITE_THEN_READ,
  WRITER_AND_READER,
} from './agents.js';

// OpenCode starts slowly (~3 s a run) and retries on its own: runs take up to a minute on a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

const available = cliAvailable('opencode') && cliAvailable('claude');

/** An opencode adapter line pointing at one scenario of the server's Chat Completions API. */
const openCodeAdapter = (name: string, baseUrl: string) =>
  `  ${name}: { type: opencode, binary: opencode, model: scripted, isolated: true, base_url: "${baseUrl}", api_key_env: OC_KEY, env: { OC_KEY: fake-key } }`;
const claudeAdapter = (name: string, baseUrl: string) =>
  `  ${name}: { type: claude, binary: claude, model: claude-test, isolated: true, base_url: "${baseUrl}", env: { ANTHROPIC_API_KEY: fake-key } }`;

/** The absolute path of an artifact recorded in run.json. */

describe.skipIf(!available)('opencode: real runs through OpenCode', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it("step 1 writes a file with OpenCode's own write tool, step 2 reads it as an injected artifact", async () => {
    const content = 'line one from step one\n';
    const run = await runAgentPipeline(
      manifestWith(
        [
          openCodeAdapter('writer', `${server.url}/s/write/notes.txt/${param(content)}/v1`),
          openCodeAdapter('reader', `${server.url}/s/shell/${param('cat .wave/artifacts/notes')}/v1`),
        ],
        WRITER_AND_READER,
      ),
      WRITE_THEN_READ,
      { 'personas/writer.md': 'You write notes.\n', 'personas/base-protocol.md': 'BASE PROTOCOL MARKER\n' },
    );
    expect(run.code, run.stderr).toBe(0);
    const write = run.record.steps.write!;
    expect(write.status).toBe('completed');
    // The file exists because OpenCode executed its write tool: its own stream reports the completed call.
    const artifact = write.artifacts.find((a) => a.name === 'notes');
    expect(artifact).toBeDefined();
    expect(readFileSync(artifactPath(run, artifact!.path), 'utf8')).toBe(content);
    const writeCalls = attemptFile(run.project, run.record, 'write', 1, 'stdout')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((o) => o.type === 'tool_use');
    expect(writeCalls.map((o) => [o.part.tool, o.part.state.status])).toEqual([['write', 'completed']]);
    // Step 2's bash tool printed the injected file, and its answer carries the text on.
    expect(run.record.steps.read!.status).toBe('completed');
    expect(readFileSync(join(run.project, '.wave', 'runs', run.record.id, 'steps', 'read', 'output.txt'), 'utf8')).toContain('line one from step one');
    // Tokens summed from step_finish parts; live tool activity names the tool and its target.
    expect(write.tokens.input).toBeGreaterThan(0);
    expect(write.tokens.output).toBeGreaterThan(0);
    const toolUses = run.events.filter((e) => e.type === 'step_event' && e.event.kind === 'tool_use');
    expect(toolUses.map((e) => [e.stepId, e.event.name, e.event.target])).toEqual([
      ['write', 'write', 'notes.txt'],
      ['read', 'bash', 'cat .wave/artifacts/notes'],
    ]);
    // The persona prompt, with the base protocol, reached the model through AGENTS.md.
    const asked = JSON.stringify(server.requests.filter((r) => r.scenario === 'write' && r.body).map((r) => r.body!.messages));
    expect(asked).toContain('BASE PROTOCOL MARKER');
    expect(asked).toContain('You write notes.');
    // Isolated: the XDG folders are in the attempt folder.
    expect(existsSync(join(run.project, '.wave', 'runs', run.record.id, 'steps', 'write', 'attempt-1', 'home'))).toBe(true);
  });

  it('a persona that denies a command: OpenCode itself refuses it, visible in its own stream', async () => {
    const run = await runAgentPipeline(
      manifestWith(
        [openCodeAdapter('guarded', `${server.url}/s/shell/${param('touch made.txt')}/v1`)],
        '  guarded:\n    adapter: guarded\n    permissions: { deny: ["Bash(touch *)"] }',
      ),
      `kind: WavePipeline
metadata: { name: p }
steps:
  - id: work
    persona: guarded
    exec: { type: prompt, source: "Touch made.txt." }
    output_artifacts: [{ name: config, path: opencode.json }]
`,
    );
    expect(run.code, run.stderr).toBe(0);
    const calls = attemptFile(run.project, run.record, 'work', 1, 'stdout')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((o) => o.type === 'tool_use');
    expect(calls).toHaveLength(1);
    expect(calls[0].part).toMatchObject({ tool: 'bash', state: { status: 'error', input: { command: 'touch made.txt' } } });
    expect(calls[0].part.state.error).toContain('a rule which prevents you from using this specific tool call');
    // The rule OpenCode enforced is the persona's, written by Wave into opencode.json; Wave's own events show the refused call.
    const config = run.record.steps.work!.artifacts.find((a) => a.name === 'config');
    expect(config).toBeDefined();
    expect(JSON.parse(readFileSync(artifactPath(run, config!.path), 'utf8')).permission.bash).toEqual({ '*': 'allow', 'touch *': 'deny' });
    expect(run.events.some((e) => e.type === 'step_event' && e.event.kind === 'tool_result' && e.event.isError)).toBe(true);
  });

  it("a bash call that exits non-zero is a tool_result error in Wave's events; the step still completes", async () => {
    const run = await runAgentPipeline(manifestWith([openCodeAdapter('oc', `${server.url}/s/shellfail/v1`)], '  agent: { adapter: oc }'), oneStepPipeline('agent'));
    expect(run.code, run.stderr).toBe(0);
    const results = run.events.filter((e) => e.type === 'step_event' && e.event.kind === 'tool_result').map((e) => e.event);
    expect(results).toEqual([expect.objectContaining({ kind: 'tool_result', isError: true, content: 'oops\n' })]);
    expect(run.record.steps.work!.status).toBe('completed');
  });

  it('a rate-limited Claude step falls over to OpenCode and the run succeeds', async () => {
    const run = await runAgentPipeline(
      manifestWith(
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

  it("a persona temperature reaches the model in OpenCode's own request", async () => {
    const run = await runAgentPipeline(
      manifestWith([openCodeAdapter('oc', `${server.url}/s/text/warm/v1`)], '  agent: { adapter: oc, temperature: 0.35 }'),
      oneStepPipeline('agent'),
    );
    expect(run.code, run.stderr).toBe(0);
    const chat = server.requests.filter((r) => r.scenario === 'text' && Array.isArray(r.body?.messages));
    expect(chat.length).toBeGreaterThan(0);
    expect(chat.map((r) => r.body!.temperature)).toContain(0.35);
  });

  it('401: auth_failed, never retried', async () => {
    const run = await runAgentPipeline(
      manifestWith([openCodeAdapter('oc', `${server.url}/s/http401/v1`)], '  agent: { adapter: oc }'),
      oneStepPipeline('agent', '    retry: { max_attempts: 2, base_delay: 100ms }\n'),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure).toMatchObject({ class: 'auth_failed', message: 'invalid api key' });
    expect(run.record.steps.work!.attempts).toHaveLength(1);
  });

  it('500: OpenCode retries on its own (about a minute, longer than stall_timeout), then server_error; Wave fails the step', async () => {
    const run = await runAgentPipeline(
      manifestWith([openCodeAdapter('oc', `${server.url}/s/http500/v1`)], '  agent: { adapter: oc }', '  stall_timeout: 20s\n'),
      oneStepPipeline('agent'),
    );
    expect(run.code).toBe(1);
    // Its silent backoff grows past 30 s, yet the retries it logs keep the watchdog from calling it stalled.
    expect(run.record.steps.work!.failure?.class).toBe('server_error');
    expect(run.record.steps.work!.attempts).toHaveLength(1);
    const retries = run.events.filter((e) => e.type === 'step_event' && e.event.kind === 'retry').map((e) => e.event.kind === 'retry' && e.event.attempt);
    expect(retries).toEqual([1, 2, 3, 4, 5]);
    expect(server.requests.filter((r) => r.scenario === 'http500' && Array.isArray(r.body?.tools)).length).toBe(6);
  });

  it('429 with retry-after: OpenCode retries on its own, then rate_limited with the retry-after; Wave waits and retries', async () => {
    const run = await runAgentPipeline(
      manifestWith([openCodeAdapter('oc', `${server.url}/s/http429/1/v1`)], '  agent: { adapter: oc }'),
      oneStepPipeline('agent', '    retry: { max_attempts: 2, base_delay: 100ms }\n'),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure).toMatchObject({ class: 'rate_limited', retryAfterMs: 1000 });
    expect(run.record.steps.work!.attempts).toHaveLength(2);
    expect(run.events.find((e) => e.type === 'step_retrying')!.delayMs).toBeGreaterThanOrEqual(1000);
  });

  it("a stall after the first event: stalled by Wave's watchdog and failed", async () => {
    const run = await runAgentPipeline(
      manifestWith([openCodeAdapter('oc', `${server.url}/s/stall/v1`)], '  agent: { adapter: oc }', '  stall_timeout: 3s\n'),
      oneStepPipeline('agent'),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe('stalled');
  });

  it("a truncated stream: OpenCode loops on its own, Wave's step timeout ends it and no process is left", async () => {
    const run = await runAgentPipeline(
      manifestWith([openCodeAdapter('oc', `${server.url}/s/truncated/v1`)], '  agent: { adapter: oc }'),
      oneStepPipeline('agent', '    timeout_minutes: 0.25\n'),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe('timeout');
    const pid = run.record.steps.work!.attempts[0]!.pid!;
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('a binary that is not installed: spawn_failed naming the npm package', async () => {
    const run = await runAgentPipeline(
      manifestWith([openCodeAdapter('oc', `${server.url}/s/text/v1`).replace('binary: opencode', 'binary: opencode-missing')], '  agent: { adapter: oc }'),
      oneStepPipeline('agent'),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe('spawn_failed');
    expect(run.record.steps.work!.failure?.hint).toContain('npm install --save-dev opencode-ai');
  });
});
