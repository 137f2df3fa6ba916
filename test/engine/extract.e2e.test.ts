import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { encodeSequence, startModelServer, type ModelServer } from '../support/model-server.mjs';
import { latestRun } from '../support/runs.js';
import { llmProject, requestsTo, REVIEW_SCHEMA, runFile, userMessage } from './contracts-support.js';

let server: ModelServer;
beforeAll(async () => void (server = await startModelServer()));
afterAll(() => server.close());

/** A command step printing `text`, extracted by the `judge` adapter, and a step reading a field of the result. */
const extractPipeline = (text: string) => `kind: WavePipeline
metadata: { name: p }
steps:
  - id: review
    exec: { type: command, source: ${JSON.stringify(`printf '%s' ${JSON.stringify(text)}`)} }
    extract: { schema: ${REVIEW_SCHEMA}, adapter: judge, model: extract-model }
  - id: report
    dependencies: [review]
    exec: { type: command, source: "echo verdict={{ steps.review.output.verdict }}" }
`;

const PROSE = 'I looked at it. Overall I would approve; no findings worth raising.';

describe('the extract layer', () => {
  it('takes JSON it can recover without asking a model', async () => {
    const prefix = `/s/seq/${encodeSequence([{ status: 500 }])}`;
    const project = llmProject(server, { judge: prefix }, extractPipeline('Result: {"verdict": "reject", "findings": [],}'));
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    expect(requestsTo(server, prefix)).toHaveLength(0);
    expect(runFile(project, 'steps/report/attempt-1/stdout').trim()).toBe('verdict=reject');
  });

  it('asks the extract model, and again with the errors of its bad first answer; the second answer is the output', async () => {
    const prefix = `/s/seq/${encodeSequence(['{"verdict": "fine"}', '```json\n{"verdict": "approve", "findings": []}\n```'])}`;
    const project = llmProject(server, { judge: prefix }, extractPipeline(PROSE));
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    const requests = requestsTo(server, prefix);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.body.model).toBe('extract-model');
    expect(userMessage(requests[0]!)).toContain(PROSE);
    expect(userMessage(requests[1]!)).toContain("(root): must have required property 'findings'");
    expect(userMessage(requests[1]!)).toContain('/verdict: must be equal to one of the allowed values');
    const run = latestRun(project);
    const artifact = run.steps.review!.artifacts.find((a) => a.name === 'extract')!;
    expect(JSON.parse(runFile(project, artifact.path))).toEqual({ verdict: 'approve', findings: [] });
    expect(runFile(project, 'steps/report/attempt-1/stdout').trim()).toBe('verdict=approve');
  });

  it('gives up with extract_failed after two bad answers, showing the last errors', async () => {
    const prefix = `/s/seq/${encodeSequence(['no idea', '{"verdict": 3, "findings": []}', '{"verdict": "approve", "findings": []}'])}`;
    const project = llmProject(server, { judge: prefix }, extractPipeline(PROSE));
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(1);
    expect(requestsTo(server, prefix)).toHaveLength(2);
    const run = latestRun(project);
    expect(run.steps.review!.failure).toMatchObject({ class: 'extract_failed', message: expect.stringContaining('/verdict: must be equal to one of the allowed values') });
    expect(run.steps.report!.attempts).toEqual([]);
  });

  it('fails a command step with extract but no adapter to ask, saying what to set', async () => {
    const project = llmProject(server, {}, extractPipeline(PROSE).replace(', adapter: judge, model: extract-model', ''));
    expect((await runWave(['run', 'p', '--output', 'quiet'], { cwd: project })).code).toBe(1);
    expect(latestRun(project).steps.review!.failure).toMatchObject({ class: 'extract_failed', message: expect.stringContaining('extract.adapter') });
  });
});
