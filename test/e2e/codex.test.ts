import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentManifest,
  attemptFile,
  cliAvailable,
  oneStepPipeline,
  param,
  runAgentPipeline,
  startModelServer,
  type ModelServer,
  WRITE_THEN_READ,
  WRITER_AND_READER,
} from './agents.js';

const available = cliAvailable('codex');

const codexManifest = agentManifest('codex', 'gpt-5.5');

const RETRY = '    retry: { max_attempts: 2, base_delay: 100ms, backoff: fixed }\n';

describe.skipIf(!available)('codex: real runs through Codex', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it("step 1 writes a file with Codex's own apply_patch, step 2 reads it as an injected artifact", async () => {
    const manifest = codexManifest(
      { writer: `${server.url}/s/write/notes.txt/${param('from codex step one\n')}/v1`, reader: `${server.url}/s/shell/${param('cat .wave/artifacts/notes')}/v1` },
      WRITER_AND_READER,
    );
    const run = await runAgentPipeline(manifest, WRITE_THEN_READ, { 'personas/writer.md': 'CODEX PERSONA MARKER\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(attemptFile(run.project, run.record, 'write', 1, 'stdout')).toContain('"type":"file_change"');
    expect(readFileSync(join(run.project, '.wave', 'runs', run.record.id, 'steps', 'read', 'output.txt'), 'utf8')).toContain('from codex step one');
    const tools = run.events.filter((e) => e.type === 'step_event' && e.event.kind === 'tool_use').map((e) => [e.stepId, e.event.name]);
    expect(tools).toEqual([
      ['write', 'file_change'],
      ['read', 'shell'],
    ]);
    const target = run.events.find((e) => e.type === 'step_event' && e.event.kind === 'tool_use' && e.stepId === 'read')!.event.target;
    expect(target).toContain('cat .wave/artifacts/notes');
    const write = run.record.steps.write!;
    expect(write.tokens.input).toBeGreaterThan(0);
    expect(write.tokens.cacheRead).toBeGreaterThan(0);
    expect(write.tokens.output).toBeGreaterThan(0);
    // The persona prompt reached the model through AGENTS.md.
    expect(JSON.stringify(server.requests.find((r) => r.scenario === 'write' && r.body)!.body)).toContain('CODEX PERSONA MARKER');
  });

  it("a failing shell command is the agent's business: the step still succeeds and the tool result is an error", async () => {
    const run = await runAgentPipeline(codexManifest({ agent: `${server.url}/s/shellfail/v1` }, '  agent: { adapter: agent }'), oneStepPipeline('agent'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.events.some((e) => e.type === 'step_event' && e.event.kind === 'tool_result' && e.event.isError && e.event.content.includes('oops'))).toBe(true);
  });

  it.each([
    ['http401', 'auth_failed', 1],
    ['http429/1', 'rate_limited', 2],
    ['http500', 'server_error', 2],
    ['truncated', 'server_error', 2],
  ])('%s: %s after %i attempt(s)', async (scenario, failureClass, attempts) => {
    const run = await runAgentPipeline(codexManifest({ agent: `${server.url}/s/${scenario}/v1` }, '  agent: { adapter: agent }'), oneStepPipeline('agent', RETRY));
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe(failureClass);
    expect(run.record.steps.work!.attempts).toHaveLength(attempts);
  });

  it("a stall: stalled by Wave's watchdog, retried, then failed", async () => {
    const run = await runAgentPipeline(
      codexManifest({ agent: `${server.url}/s/stall/v1` }, '  agent: { adapter: agent }', '  stall_timeout: 3s\n'),
      oneStepPipeline('agent', RETRY),
    );
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe('stalled');
    expect(run.record.steps.work!.attempts).toHaveLength(2);
  });

  it('a binary that is not installed: spawn_failed naming the npm package', async () => {
    const manifest = codexManifest({ agent: `${server.url}/s/text/v1` }, '  agent: { adapter: agent }').replace('binary: codex,', 'binary: codex-missing,');
    const run = await runAgentPipeline(manifest, oneStepPipeline('agent', RETRY));
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.hint).toContain('npm install --save-dev @openai/codex');
    expect(run.record.steps.work!.attempts).toHaveLength(1);
  });
});
