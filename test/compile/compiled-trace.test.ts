import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runSpanId, traceIdOfRun } from '../../src/trace/trace-ids.js';
import { TRACE_FILE } from '../../src/trace/live-trace.js';
import { requestsOf, spansOf, startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { makeProject } from '../support/project.js';
import { readAsGithub } from '../support/workflow-reader.mjs';
import { compile, planOf } from './compiled.js';
import { simulateWorkflow } from './simulate.js';

const PIPELINE = `kind: WavePipeline
metadata: { name: traced }
steps:
  - { id: make, exec: { type: command, source: "echo made" } }
  - { id: left, dependencies: [make], exec: { type: command, source: "echo left" } }
  - { id: right, dependencies: [make], exec: { type: command, source: "echo right" } }
`;

describe('the jobs of a compiled workflow: one trace', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // Every job's environment (the simulated runner inherits it): the collector a repository would configure.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  });
  afterAll(async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    await receiver?.close();
  });

  it('every job gets the run id its trace id derives from, as GitHub reads the workflow', async () => {
    const project = makeProject({ 'pipelines/traced.yaml': PIPELINE });
    const text = compile(await planOf(join(project, 'wave.yaml'), join(project, 'pipelines/traced.yaml')), project);
    const { errors, template } = await readAsGithub(text);
    expect(errors).toEqual([]);
    expect(template?.jobs.map((job) => job.id.value).sort()).toEqual(['left', 'make', 'right', 'run-record']);
    const workflow = parse(text) as { env: Record<string, string>; jobs: Record<string, { steps: Array<{ env?: Record<string, string> }> }> };
    expect(workflow.env.WAVE_RUN_ID).toBe('traced-gh-${{ github.run_id }}-${{ github.run_attempt }}');
    // No job names another run: each takes the workflow's.
    for (const job of Object.values(workflow.jobs)) for (const step of job.steps) expect(step.env?.WAVE_RUN_ID).toBeUndefined();
  });

  it('the step jobs send no spans of their own; the job that assembles the run writes and sends one trace of them all', { timeout: 120_000 }, async () => {
    receiver.received.length = 0;
    const project = makeProject({ 'pipelines/traced.yaml': PIPELINE });
    const plan = await planOf(join(project, 'wave.yaml'), join(project, 'pipelines/traced.yaml'));
    const sim = await simulateWorkflow(compile(plan, project), project, plan.input);
    expect(sim.results.get('run-record')).toBe('success');
    for (const job of ['make', 'left', 'right']) expect(existsSync(join(sim.folders.get(job)!, '.wave/runs', sim.runId, TRACE_FILE))).toBe(false);
    const file = join(sim.folders.get('run-record')!, '.wave/runs', sim.runId, TRACE_FILE);
    const written = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(requestsOf(receiver.received, 'wave')).toEqual(written);
    const spans = spansOf(written);
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([traceIdOfRun(sim.runId)]));
    const [workflow] = spans.filter((span) => span.name === 'invoke_workflow traced');
    expect(workflow).toMatchObject({ spanId: runSpanId(sim.runId, 1) });
    expect(workflow.parentSpanId).toBeUndefined();
    const steps = spans.filter((span) => span.name.startsWith('step '));
    expect(steps.map((span) => span.name).sort()).toEqual(['step left', 'step make', 'step right']);
    for (const step of steps) expect(step.parentSpanId).toBe(workflow.spanId);
    expect(spans.filter((span) => span.spanId === workflow.spanId)).toHaveLength(1);
  });
});
