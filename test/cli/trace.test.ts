import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { closedPort } from '../support/closed-port.js';
import { attributesOf, spansOf, startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';

/** A step that fails its first attempt and passes its second, then a child pipeline. */
function parentPipeline(marker: string): string {
  return `kind: WavePipeline
metadata: { name: parent }
steps:
  - id: flaky
    retry: { max_attempts: 2, base_delay: 10ms }
    exec: { type: command, source: "test -f ${marker} || { touch ${marker}; exit 3; }" }
  - id: sub
    pipeline: child
    dependencies: [flaky]
`;
}

const CHILD = 'kind: WavePipeline\nmetadata: { name: child }\nsteps:\n  - id: build\n    exec: { type: command, source: "echo built" }\n';

const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
const bySpanId = (spans: any[]) => [...spans].sort((a, b) => a.spanId.localeCompare(b.spanId));
const named = (spans: any[], name: string) => spans.filter((span) => span.name === name);

describe('traces of a run with a retry and a child run', () => {
  let receiver: OtlpReceiver;
  let project: string;
  let parent: RunRecord;
  let live: any[];
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    project = makeProject({ 'pipelines/parent.yaml': parentPipeline(join(mkdtempSync(join(tmpdir(), 'wave-flaky-')), 'once')), 'pipelines/child.yaml': CHILD });
    const run = await runWave(['run', 'parent', '--output', 'quiet'], { cwd: project, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    expect(run.code, run.stderr).toBe(0);
    const records = runDirs(project).map((dir) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord);
    parent = records.find((record) => record.parentId === undefined)!;
    live = lines(readFileSync(join(project, '.wave', 'runs', parent.id, 'otel.jsonl'), 'utf8'));
  });
  afterAll(() => receiver.close());

  it('sends live what otel.jsonl holds: attempts as siblings, the failed one with its class, the child run under its step', () => {
    expect(receiver.received.map((r) => r.body)).toEqual(live);
    const spans = spansOf(live);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const [flaky] = named(spans, 'step flaky');
    const attempts = named(spans, 'attempt flaky');
    expect(attempts.map((span) => [span.parentSpanId, attributesOf(span)['wave.attempt'], attributesOf(span)['error.type']])).toEqual([
      [flaky.spanId, 1, 'non_zero_exit'],
      [flaky.spanId, 2, undefined],
    ]);
    expect(flaky.events.map((event: any) => event.name)).toContain('wave.retry');
    const [child] = named(spans, 'invoke_workflow child');
    expect(child.parentSpanId).toBe(named(spans, 'step sub')[0].spanId);
    expect(named(spans, 'step build')[0].parentSpanId).toBe(child.spanId);
    const ids = new Set(spans.map((span) => span.spanId));
    expect(ids.size).toBe(spans.length);
    expect(spans.filter((span) => span.parentSpanId !== undefined && !ids.has(span.parentSpanId))).toEqual([]);
  });

  it('`wave trace -o` writes the same spans from the recorded events, and `--endpoint` sends them', async () => {
    const out = join(project, 'trace.jsonl');
    const written = await runWave(['trace', parent.id, '-o', out], { cwd: project });
    expect(written.code, written.stderr).toBe(0);
    expect(bySpanId(spansOf(lines(readFileSync(out, 'utf8'))))).toEqual(bySpanId(spansOf(live)));
    receiver.received.length = 0;
    const sent = await runWave(['trace', parent.id.slice(0, 12), '--endpoint', receiver.url], { cwd: project });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain(`spans of ${parent.id} to ${receiver.url}/v1/traces`);
    expect(bySpanId(spansOf(receiver.received.map((r) => r.body)))).toEqual(bySpanId(spansOf(live)));
  });

  it('refuses an endpoint that is no http URL, and a call with nowhere to put the trace', async () => {
    const ftp = await runWave(['trace', parent.id, '--endpoint', 'ftp://collector'], { cwd: project });
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain('invalid_argument: --endpoint `ftp://collector` is not an http or https URL');
    const nowhere = await runWave(['trace', parent.id], { cwd: project });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/wave trace needs somewhere to put the trace\n\s+hint: Give --endpoint/);
  });

  it('fails with trace_export_failed when nothing listens at the endpoint', async () => {
    const result = await runWave(['trace', parent.id, '--endpoint', `http://127.0.0.1:${await closedPort()}`], { cwd: project });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^trace_export_failed: could not send the run's trace to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
  });
});

describe('the trace of a run started under a TRACEPARENT, then resumed', () => {
  it('hangs under that parent, links the resumed drive to the first, and `wave trace` gives the same spans', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'wave-gate-')), 'ready');
    const pipeline = `kind: WavePipeline\nmetadata: { name: gated }\nsteps:\n  - id: wait\n    exec: { type: command, source: "test -f ${marker}" }\n`;
    const project = makeProject({ 'pipelines/gated.yaml': pipeline });
    const env = { TRACEPARENT: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    expect((await runWave(['run', 'gated', '--output', 'quiet'], { cwd: project, env })).code).toBe(1);
    writeFileSync(marker, '');
    const [dir] = runDirs(project);
    const runId = dir!.slice(dir!.lastIndexOf('/') + 1);
    const resumed = await runWave(['resume', runId, '--output', 'quiet'], { cwd: project, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const spans = spansOf(lines(readFileSync(join(dir!, 'otel.jsonl'), 'utf8')));
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set(['0af7651916cd43dd8448eb211c80319c']));
    const [first, second] = named(spans, 'invoke_workflow gated');
    expect([first.parentSpanId, second.parentSpanId]).toEqual(['b7ad6b7169203331', 'b7ad6b7169203331']);
    expect(attributesOf(first)).toMatchObject({ 'wave.run.status': 'failed', 'error.type': 'failed' });
    expect(second.links.map((link: any) => link.spanId)).toEqual([first.spanId]);
    expect(named(spans, 'step wait').map((span) => span.parentSpanId)).toEqual([first.spanId, second.spanId]);
    expect(new Set(spans.map((span) => span.spanId)).size).toBe(spans.length);
    const out = join(project, 'again.jsonl');
    expect((await runWave(['trace', runId, '-o', out], { cwd: project })).code).toBe(0);
    expect(bySpanId(spansOf(lines(readFileSync(out, 'utf8'))))).toEqual(bySpanId(spans));
  });
});
