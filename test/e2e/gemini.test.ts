import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentManifest, cliAvailable, oneStepPipeline, param, runAgentPipeline, startModelServer, type ModelServer, WRITE_THEN_READ, WRITER_AND_READER } from './agents.js';

const available = cliAvailable('gemini');

const geminiManifest = agentManifest('gemini', 'gemini-2.5-pro');

const RETRY = '    retry: { max_attempts: 2, base_delay: 100ms, backoff: fixed }\n';

describe.skipIf(!available)('gemini: real runs through Gemini CLI', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it("step 1 writes a file with Gemini's own write_file, step 2 reads it as an injected artifact", async () => {
    const manifest = geminiManifest(
      { writer: `${server.url}/s/write/notes.txt/${param('from gemini step one\n')}`, reader: `${server.url}/s/shell/${param('cat .wave/artifacts/notes')}` },
      WRITER_AND_READER,
    );
    const run = await runAgentPipeline(manifest, WRITE_THEN_READ, { 'personas/writer.md': 'GEMINI PERSONA MARKER\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(run.project, '.wave', 'runs', run.record.id, 'steps', 'read', 'output.txt'), 'utf8')).toContain('from gemini step one');
    const tools = run.events.filter((e) => e.type === 'step_event' && e.event.kind === 'tool_use').map((e) => [e.stepId, e.event.name, e.event.target]);
    expect(tools).toEqual([
      ['write', 'write_file', 'notes.txt'],
      ['read', 'run_shell_command', 'cat .wave/artifacts/notes'],
    ]);
    expect(run.record.steps.write!.tokens.input).toBeGreaterThan(0);
    expect(run.record.steps.write!.tokens.cacheRead).toBeGreaterThan(0);
    // The persona prompt reached the model through GEMINI.md.
    expect(JSON.stringify(server.requests.find((r) => r.scenario === 'write' && r.body)!.body)).toContain('GEMINI PERSONA MARKER');
  });

  // Gemini CLI keeps no resumable session when its first request failed: the retry is not offered that session and
  // starts fresh (a session_fresh event says why), within the retry budget.
  it.each([
    ['http401', 'auth_failed', 1],
    ['http500', 'server_error', 2],
    ['http429/1', 'rate_limited', 2],
  ])('%s: %s after %i attempt(s)', async (scenario, failureClass, attempts) => {
    const run = await runAgentPipeline(geminiManifest({ agent: `${server.url}/s/${scenario}` }, '  agent: { adapter: agent }'), oneStepPipeline('agent', RETRY));
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe(failureClass);
    expect(run.record.steps.work!.attempts).toHaveLength(attempts);
  });

  it("a stall: stalled by Wave's watchdog, retried, then failed", async () => {
    const run = await runAgentPipeline(geminiManifest({ agent: `${server.url}/s/stall` }, '  agent: { adapter: agent }', '  stall_timeout: 3s\n'), oneStepPipeline('agent', RETRY));
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe('stalled');
    expect(run.record.steps.work!.attempts).toHaveLength(2);
  });

  it('a persona temperature reaches the model through the isolated settings.json', async () => {
    const run = await runAgentPipeline(geminiManifest({ agent: `${server.url}/s/text/warm` }, '  agent: { adapter: agent, temperature: 0.35 }'), oneStepPipeline('agent'));
    expect(run.code, run.stderr).toBe(0);
    const temperatures = server.requests.filter((r) => r.scenario === 'text' && r.body).map((r) => (r.body!.generationConfig as { temperature?: number } | undefined)?.temperature);
    expect(temperatures).toContain(0.35);
  });

  it('a truncated stream: the result says error, server_error as for Codex, the step fails', async () => {
    const run = await runAgentPipeline(geminiManifest({ agent: `${server.url}/s/truncated` }, '  agent: { adapter: agent }'), oneStepPipeline('agent'));
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure).toMatchObject({ class: 'server_error', message: expect.stringContaining('Incomplete JSON segment') });
  });

  it("a shell command that exits non-zero without output: Gemini's failure display makes it a tool_result error", async () => {
    const run = await runAgentPipeline(geminiManifest({ agent: `${server.url}/s/shell/${param('exit 3')}` }, '  agent: { adapter: agent }'), oneStepPipeline('agent'));
    expect(run.code, run.stderr).toBe(0);
    const results = run.events.filter((e) => e.type === 'step_event' && e.event.kind === 'tool_result').map((e) => e.event);
    expect(results).toEqual([expect.objectContaining({ isError: true, content: 'Command exited with code: 3' })]);
  });

  it('a binary that is not installed: spawn_failed naming the npm package', async () => {
    const manifest = geminiManifest({ agent: `${server.url}/s/text` }, '  agent: { adapter: agent }').replace('binary: gemini,', 'binary: gemini-missing,');
    const run = await runAgentPipeline(manifest, oneStepPipeline('agent'));
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.hint).toContain('npm install --save-dev @google/gemini-cli');
  });
});
