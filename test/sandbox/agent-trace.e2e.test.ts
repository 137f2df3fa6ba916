import { describe, expect, it, vi } from 'vitest';
import { attemptSpanId, traceIdOfRun } from '../../src/trace/trace-ids.js';
import { attemptFile, claudeManifest, cliAvailable, modelServerAndCollector, oneStepPipeline, param, runEvents } from '../e2e/agents.js';
import { runWave } from '../support/cli.js';
import { requestsOf, spansOf } from '../support/otlp-receiver.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, sandboxRuntime } from '../support/sandbox.js';

// A traced run hands each agent its attempt's span and lets it reach the collector from inside the sandbox; an
// untraced one hands it nothing and lets it reach nothing more. Docker adds a container's start to each run.
vi.setConfig({ testTimeout: 300_000 });

describe.each(['bubblewrap', 'docker'] as const)('%s sandbox: an agent in a traced run', (backend) => {
  describe.skipIf(!backendAvailable(backend) || !cliAvailable('claude'))(`${backend}`, () => {
    const servers = modelServerAndCollector();

    /** Runs a Claude Code step whose shell tool prints its TRACEPARENT and tries the collector; `env` is wave's. */
    async function probeRun(env: Record<string, string>) {
      const post = `fetch('${servers.receiver().url}/v1/traces',{method:'POST',headers:{'content-type':'application/json'},body:'{"resourceSpans":[]}'})`;
      const command = `echo "tp=$TRACEPARENT"; node -e "${post}.then((r)=>console.log('collector '+r.status),()=>console.log('collector unreachable'))"`;
      const manifest = claudeManifest({ prober: `${servers.server().url}/s/shell/${param(command)}` }, '  prober: { adapter: prober }', sandboxRuntime(backend));
      const project = makeProject({ 'wave.yaml': manifest, 'pipelines/p.yaml': oneStepPipeline('prober') });
      const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project, timeout: 280_000, env });
      const record = latestRun(project);
      const port = Number(new URL(servers.receiver().url).port);
      const toCollector = runEvents(project, record).filter((e) => e.type === 'egress' && e.port === port);
      return { ...result, record, stdout: attemptFile(project, record, 'work', 1, 'stdout'), toCollector };
    }

    it("gets its attempt's span as TRACEPARENT and reaches the collector, where its own spans arrive", async () => {
      servers.receiver().received.length = 0;
      const run = await probeRun({ OTEL_EXPORTER_OTLP_ENDPOINT: servers.receiver().url });
      expect(run.code, run.stderr).toBe(0);
      const runId = run.record.id;
      expect(run.stdout).toContain(`tp=00-${traceIdOfRun(runId)}-${attemptSpanId(runId, 'work', 1)}-01`);
      expect(run.stdout).toContain('collector 200');
      expect(run.toCollector).toContainEqual(expect.objectContaining({ via: 'endpoint', allowed: true }));
      const own = spansOf(requestsOf(servers.receiver().received, 'claude-code'));
      expect(own.find((span) => span.name === 'claude_code.interaction')).toMatchObject({ traceId: traceIdOfRun(runId), parentSpanId: attemptSpanId(runId, 'work', 1) });
    });

    it('untraced, gets no TRACEPARENT and cannot reach the collector: no host is added', async () => {
      servers.receiver().received.length = 0;
      const run = await probeRun({});
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/tp=\\n/);
      expect(run.stdout).toContain('collector unreachable');
      expect(run.toCollector.filter((e) => e.allowed === true)).toEqual([]);
      expect(requestsOf(servers.receiver().received, 'claude-code')).toEqual([]);
    });
  });
});
