import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRACE_FLUSH_TIMEOUT_MS } from '../../src/trace/live-trace.js';
import { runWave } from '../support/cli.js';
import { closedPort } from '../support/closed-port.js';
import { attributesOf, requestsOf, spansOf } from '../support/otlp-receiver.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { agentManifest, claudeManifest, cliAvailable, manifestWith, modelServerAndCollector, oneStepPipeline, param } from './agents.js';

const PLANTED = 'planted-secret-value-4f9d2c';

/** Runs `p` in a new project with `env`; returns its record, stderr and the requests its otel.jsonl holds. */
async function tracedRun(manifest: string, pipeline: string, env: Record<string, string>) {
  const project = makeProject({ 'wave.yaml': manifest, 'pipelines/p.yaml': pipeline });
  const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project, timeout: 280_000, env: { PLANTED_TOKEN: PLANTED, ...env } });
  const record = latestRun(project);
  const text = readFileSync(join(project, '.wave', 'runs', record.id, 'otel.jsonl'), 'utf8');
  return {
    ...result,
    project,
    record,
    text,
    written: text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  };
}

const byName = (spans: any[], name: string) => spans.filter((span) => span.name === name);

describe.skipIf(!cliAvailable('claude'))('claude: a run as an OpenTelemetry trace', () => {
  const servers = modelServerAndCollector();

  const manifest = (runtime: string) =>
    claudeManifest(
      { worker: `${servers.server().url}/s/shell/${param('echo "$PLANTED_TOKEN"')}` },
      '  worker: { adapter: worker }',
      `  sandbox: { env_passthrough: [PLANTED_TOKEN] }\n${runtime}`,
    );

  it('sends the collector what otel.jsonl holds: one trace of the workflow, its step, the agent with its tokens and session, and its tool call', async () => {
    servers.receiver().received.length = 0;
    const run = await tracedRun(manifest(''), oneStepPipeline('worker'), { OTEL_EXPORTER_OTLP_ENDPOINT: servers.receiver().url });
    expect(run.code, run.stderr).toBe(0);
    expect(requestsOf(servers.receiver().received, 'wave')).toEqual(run.written);
    const spans = spansOf(run.written);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const [workflow] = byName(spans, 'invoke_workflow p');
    expect(attributesOf(workflow)).toMatchObject({ 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'p', 'wave.run_id': run.record.id });
    const [step] = byName(spans, 'step work');
    expect(step.parentSpanId).toBe(workflow.spanId);
    const [agent] = byName(spans, 'invoke_agent worker');
    expect(agent.parentSpanId).toBe(step.spanId);
    const attempt = run.record.steps.work!.attempts[0]!;
    expect(attributesOf(agent)).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-test',
      'gen_ai.conversation.id': attempt.sessionId,
      'gen_ai.usage.input_tokens': attempt.tokens.input,
      'gen_ai.usage.output_tokens': attempt.tokens.output,
      'gen_ai.usage.cache_read.input_tokens': attempt.tokens.cacheRead,
      'wave.attempt': 1,
    });
    expect(attempt.tokens.input).toBeGreaterThan(0);
    const [tool] = byName(spans, 'execute_tool Bash');
    expect(tool.parentSpanId).toBe(agent.spanId);
    expect(attributesOf(tool)['gen_ai.tool.call.id']).toEqual(expect.any(String));
    // Content stays out unless asked for.
    expect(attributesOf(tool)['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(run.text).not.toContain(PLANTED);
    // Claude Code's own spans join the trace under the attempt's span, with neither its prompt nor its tool's output.
    const own = spansOf(requestsOf(servers.receiver().received, 'claude-code'));
    const interaction = own.find((span) => span.name === 'claude_code.interaction');
    expect(interaction, JSON.stringify(servers.receiver().received.map((r) => r.path))).toBeDefined();
    expect(interaction).toMatchObject({ traceId: agent.traceId, parentSpanId: agent.spanId });
    expect(new Set(own.map((span) => span.traceId))).toEqual(new Set([agent.traceId]));
    expect(JSON.stringify(own)).not.toContain(PLANTED);
  });

  it('keeps tool arguments and results with runtime.telemetry.capture_content, redacted, sent where runtime.telemetry.otlp says', async () => {
    servers.receiver().received.length = 0;
    const telemetry = `  telemetry: { otlp: { endpoint: "${servers.receiver().url}", headers: { x-tenant: wave } }, capture_content: true }`;
    const run = await tracedRun(manifest(telemetry), oneStepPipeline('worker'), {});
    expect(run.code, run.stderr).toBe(0);
    expect(requestsOf(servers.receiver().received, 'wave')).toEqual(run.written);
    expect(servers.receiver().received[0]!.headers['x-tenant']).toBe('wave');
    const tool = attributesOf(byName(spansOf(run.written), 'execute_tool Bash')[0]);
    expect(tool['gen_ai.tool.call.arguments']).toBe('echo "$PLANTED_TOKEN"');
    expect(tool['gen_ai.tool.call.result']).toContain('[REDACTED]');
    expect(run.text).not.toContain(PLANTED);
    // `wave trace` afterwards keeps the content as the manifest says, as the live run did.
    const again = await runWave(['trace', run.record.id, '-o', '-'], { cwd: run.project });
    expect(again.code, again.stderr).toBe(0);
    expect(
      attributesOf(
        byName(
          spansOf(
            again.stdout
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line)),
          ),
          'execute_tool Bash',
        )[0],
      ),
    ).toEqual(tool);
    // What Claude Code sends its collector itself Wave cannot redact: its content switches stay off.
    const own = requestsOf(servers.receiver().received, 'claude-code');
    expect(spansOf(own).length).toBeGreaterThan(0);
    expect(JSON.stringify(own)).not.toContain(PLANTED);
  });
});

describe.skipIf(!cliAvailable('codex'))('codex: its own spans in the run trace', () => {
  const servers = modelServerAndCollector();

  it("hang under the attempt's invoke_agent span, in the run's trace, with no planted secret", async () => {
    servers.receiver().received.length = 0;
    const manifest = agentManifest('codex', 'gpt-5.5')(
      { worker: `${servers.server().url}/s/shell/${param('echo "$PLANTED_TOKEN"')}/v1` },
      '  worker: { adapter: worker }',
      '  sandbox: { env_passthrough: [PLANTED_TOKEN] }\n',
    );
    const run = await tracedRun(manifest, oneStepPipeline('worker'), { OTEL_EXPORTER_OTLP_ENDPOINT: servers.receiver().url });
    expect(run.code, run.stderr).toBe(0);
    expect(requestsOf(servers.receiver().received, 'wave')).toEqual(run.written);
    const [agent] = byName(spansOf(run.written), 'invoke_agent worker');
    const own = spansOf(requestsOf(servers.receiver().received, 'codex_exec'));
    expect(own.length, JSON.stringify(servers.receiver().received.map((r) => r.path))).toBeGreaterThan(0);
    // Some start-up spans come before it reads TRACEPARENT; its requests (initialize, thread/start, turn/start) hang under the attempt's span.
    const joined = own.filter((span) => span.traceId === agent.traceId);
    expect(joined.filter((span) => span.parentSpanId === agent.spanId).map((span) => span.name)).toContain('turn/start');
    expect(JSON.stringify(own)).not.toContain(PLANTED);
  });
});

/** Gemini CLI and OpenCode read no TRACEPARENT: their own spans reach the collector with the attempt as resource attributes. */
const UNPARENTED = [
  { cli: 'gemini', manifest: agentManifest('gemini', 'gemini-2.5-pro'), api: '' },
  { cli: 'opencode', manifest: agentManifest('opencode', 'scripted', ', api_key_env: OC_KEY, env: { OC_KEY: fake-key }'), api: '/v1' },
] as const;

describe.each(UNPARENTED)('$cli: its own spans beside the run trace', ({ cli, manifest, api }) => {
  const servers = modelServerAndCollector();

  it.skipIf(!cliAvailable(cli))('reach the collector carrying the run, step and attempt, with no planted secret', async () => {
    servers.receiver().received.length = 0;
    const run = await tracedRun(
      manifest(
        { worker: `${servers.server().url}/s/shell/${param('echo "$PLANTED_TOKEN"')}${api}` },
        '  worker: { adapter: worker }',
        '  sandbox: { env_passthrough: [PLANTED_TOKEN] }\n',
      ),
      oneStepPipeline('worker'),
      { OTEL_EXPORTER_OTLP_ENDPOINT: servers.receiver().url },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(requestsOf(servers.receiver().received, 'wave')).toEqual(run.written);
    const theirs = servers
      .receiver()
      .received.filter((request) => request.body?.resourceSpans && attributesOf(request.body.resourceSpans[0].resource)['wave.run_id'] === run.record.id);
    expect(theirs.length, JSON.stringify(servers.receiver().received.map((r) => [r.path, r.headers['content-type']]))).toBeGreaterThan(0);
    expect(attributesOf(theirs[0]!.body.resourceSpans[0].resource)).toMatchObject({ 'wave.step': 'work', 'wave.attempt': '1' });
    expect(JSON.stringify(theirs.map((request) => request.body))).not.toContain(PLANTED);
  });
});

describe('a run whose collector cannot be reached', () => {
  const command = manifestWith(['  sh: { type: process }'], '  shell: { adapter: sh }');
  const pipeline = 'kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - id: work\n    persona: shell\n    exec: { type: command, source: "echo hi" }\n';

  it('ends green with one warning, its trace kept in otel.jsonl', async () => {
    const run = await tracedRun(command, pipeline, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await closedPort()}` });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/warning: could not send the run's trace to http:\/\/127\.0\.0\.1:\d+\/v1\/traces .*otel\.jsonl/);
    expect(byName(spansOf(run.written), 'invoke_workflow p')).toHaveLength(1);
  });

  it('waits for a collector that never answers no longer than the flush timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const started = Date.now();
    const run = await tracedRun(command, pipeline, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` });
    const elapsed = Date.now() - started;
    silent.close();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`(no answer within ${TRACE_FLUSH_TIMEOUT_MS} ms)`);
    // The exporter alone would wait 10 s a try and retry; the run gives it the flush timeout (and its own second or so).
    expect(elapsed).toBeLessThan(TRACE_FLUSH_TIMEOUT_MS + 5000);
  });
});
