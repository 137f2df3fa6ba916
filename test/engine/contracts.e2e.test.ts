import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIREMENTS_HEADING } from '../../src/contracts/requirements.js';
import { runWave } from '../support/cli.js';
import { encodeSequence, startModelServer, type ModelServer } from '../support/model-server.mjs';
import { latestRun, runDirs } from '../support/runs.js';
import { llmProject, requestsTo, REVIEW_SCHEMA, runEvents, runFile, userMessage } from './contracts-support.js';

let server: ModelServer;
beforeAll(async () => void (server = await startModelServer()));
afterAll(() => server.close());

/** A review step by the llm critic with a json_schema contract, and a step reading its verdict. */
const reviewPipeline = (contract: string) => `kind: WavePipeline
metadata: { name: p }
steps:
  - id: review
    persona: critic
    exec: { source: "Review the change." }
    output_artifacts: [{ name: review, source: stdout, type: json }]
    handover:
      contract: { type: json_schema, schema: ${REVIEW_SCHEMA}${contract} }
  - id: report
    dependencies: [review]
    exec: { type: command, source: "echo verdict={{ steps.review.output.verdict }}" }
`;

const seq = (answers: Parameters<typeof encodeSequence>[0]) => `/s/seq/${encodeSequence(answers)}`;

describe('json_schema contracts through wave run and the llm adapter', () => {
  it('passes valid JSON and hands its fields to the next step; the prompt carried the schema', async () => {
    const prefix = seq(['{"verdict": "approve", "findings": []}']);
    const project = llmProject(server, { model: prefix }, reviewPipeline(''));
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    const run = latestRun(project);
    expect(run.steps.review!.contracts).toEqual([{ attempt: 1, contract: "1:json_schema the step's output", passed: true, action: 'pass', errors: [] }]);
    expect(runFile(project, 'steps/report/attempt-1/stdout').trim()).toBe('verdict=approve');
    const prompt = userMessage(requestsTo(server, prefix)[0]!);
    expect(prompt).toContain(REQUIREMENTS_HEADING);
    expect(prompt).toContain('"approve",');
  });

  it('recovers fenced JSON from prose and writes it back as the artifact and the output', async () => {
    const project = llmProject(server, { model: '/s/fenced' }, reviewPipeline(''));
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    const run = latestRun(project);
    const saved = run.steps.review!.artifacts.find((a) => a.name === 'review')!;
    expect(JSON.parse(readFileSync(join(runDirs(project)[0]!, saved.path), 'utf8'))).toEqual({ verdict: 'approve', findings: [] });
    expect(run.steps.review!.contracts[0]).toMatchObject({ passed: true, errors: ["recovered JSON from the step's output and wrote it back"] });
    expect(JSON.parse(runFile(project, 'steps/review/output.txt'))).toEqual({ verdict: 'approve', findings: [] });
    expect(runFile(project, 'steps/report/attempt-1/stdout').trim()).toBe('verdict=approve');
  });

  it('retries invalid JSON with the ajv error in the prompt; the second answer passes', async () => {
    const prefix = seq(['{"verdict": "maybe", "findings": []}', 'Fixed:\n```json\n{"verdict": "reject", "findings": ["x"]}\n```']);
    const project = llmProject(server, { model: prefix }, reviewPipeline(', on_failure: retry, max_retries: 2'));
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    const requests = requestsTo(server, prefix);
    expect(requests).toHaveLength(2);
    expect(userMessage(requests[1]!)).toContain('/verdict: must be equal to one of the allowed values (allowed: "approve", "reject")');
    expect(userMessage(requests[1]!)).toContain('"verdict": "maybe"');
    const run = latestRun(project);
    expect(run.steps.review!.attempts.map((a) => a.failure?.class)).toEqual(['contract_failed', undefined]);
    expect(run.steps.review!.contracts.map((c) => [c.attempt, c.passed, c.action])).toEqual([
      [1, false, 'retry'],
      [2, true, 'pass'],
    ]);
    expect(runEvents(project).flatMap((e) => (e.type === 'contract_checked' ? [[e.attempt, e.action]] : []))).toEqual([
      [1, 'retry'],
      [2, 'pass'],
    ]);
    expect(runFile(project, 'steps/report/attempt-1/stdout').trim()).toBe('verdict=reject');
  });

  it('fails after max_retries with a message naming the field and why', async () => {
    const prefix = seq(['{"verdict": "maybe", "findings": []}']);
    const project = llmProject(server, { model: prefix }, reviewPipeline(', on_failure: retry, max_retries: 1'));
    const result = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(result.code).toBe(1);
    expect(requestsTo(server, prefix)).toHaveLength(2);
    const run = latestRun(project);
    expect(run.steps.review!.failure).toMatchObject({ class: 'contract_failed', message: expect.stringContaining('/verdict: must be equal to one of the allowed values') });
    expect(run.steps.review!.contracts.map((c) => c.action)).toEqual(['retry', 'fail']);
    expect(run.steps.report!.attempts).toEqual([]);
  });

  it('honours a 429 retry-after through the step retry policy, then succeeds', async () => {
    const prefix = seq([{ status: 429, retry_after: 1 }, '{"verdict": "approve", "findings": []}']);
    const project = llmProject(
      server,
      { model: prefix },
      reviewPipeline('').replace('    exec: { source: "Review the change." }', '    retry: { max_attempts: 2, base_delay: 10ms }\n    exec: { source: "Review the change." }'),
    );
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    const retrying = runEvents(project).find((e) => e.type === 'step_retrying');
    expect(retrying).toMatchObject({ delayMs: 1000, failure: { class: 'rate_limited', retryAfterMs: 1000 } });
  });
});

describe('test_suite and llm_judge contracts', () => {
  it('a test_suite contract fails, then passes when the retried command gets it right', async () => {
    const project = llmProject(
      server,
      {},
      `kind: WavePipeline
metadata: { name: p }
steps:
  - id: build
    exec: { type: command, source: "echo run >> runs.log; echo built" }
    handover:
      contract: { type: test_suite, command: "echo checking; test $(wc -l < runs.log) -ge 2", on_failure: retry, max_retries: 3 }
`,
    );
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    const run = latestRun(project);
    expect(run.steps.build!.attempts).toHaveLength(2);
    expect(run.steps.build!.contracts.map((c) => c.action)).toEqual(['retry', 'pass']);
    expect(run.steps.build!.contracts[0]!.errors).toEqual(['`echo checking; test $(wc -l < runs.log) -ge 2` exited with code 1', 'output:\nchecking']);
    expect(runFile(project, 'steps/build/attempt-1/contract-1.log')).toBe('checking');
  });

  it('an llm_judge contract below its threshold fails the step with the judge reasons', async () => {
    const verdict = encodeURIComponent('{"score": 0.3, "reasons": ["does not name the files"]}');
    const project = llmProject(
      server,
      { judge: `/s/text/${verdict}` },
      `kind: WavePipeline
metadata: { name: p }
steps:
  - id: plan
    exec: { type: command, source: "echo change things" }
    handover:
      contract: { type: llm_judge, adapter: judge, criteria: [names the files it changes], threshold: 0.8 }
`,
    );
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(1);
    const run = latestRun(project);
    expect(run.steps.plan!.failure).toMatchObject({ class: 'contract_failed', message: expect.stringContaining('judge score 0.3 is below the threshold 0.8') });
    expect(run.steps.plan!.contracts[0]!.errors).toEqual(['judge score 0.3 is below the threshold 0.8', 'does not name the files']);
    const judged = server.requests.filter((r) => r.url?.startsWith(`/s/text/${verdict}/`));
    expect(userMessage(judged.at(-1)!)).toContain('change things');
    expect(judged.at(-1)!.body.model).toBe('judge-model');
  });
});

/** A step whose first contract (a missing file) fails with `policy`, a second contract, and a dependent. */
const policyPipeline = (policy: string) => `kind: WavePipeline
metadata: { name: p }
steps:
  - id: make
    exec: { type: command, source: "echo made" }
    handover:
      contracts:
        - { type: non_empty_file, source: missing.md, on_failure: ${policy} }
        - { type: test_suite, command: "exit 1" }
  - id: after
    dependencies: [make]
    exec: { type: command, source: "echo after" }
`;

describe('on_failure policies', () => {
  it('fail (the default) fails the step, stops checking, and its dependents never run', async () => {
    const project = llmProject(server, {}, policyPipeline('fail'));
    expect((await runWave(['run', 'p', '--output', 'quiet'], { cwd: project })).code).toBe(1);
    const run = latestRun(project);
    expect(run.steps.make!.contracts).toEqual([{ attempt: 1, contract: '1:non_empty_file missing.md', passed: false, action: 'fail', errors: ['missing.md does not exist'] }]);
    expect([run.steps.make!.status, run.steps.after!.attempts.length]).toEqual(['failed', 0]);
  });

  it('warn records the failure as an event and goes on to the next contract', async () => {
    const project = llmProject(server, {}, policyPipeline('warn').replace('command: "exit 1"', 'command: "exit 0"'));
    expect((await runWave(['run', 'p', '--output', 'quiet'], { cwd: project })).code).toBe(0);
    const run = latestRun(project);
    expect(run.steps.make!.contracts.map((c) => [c.passed, c.action])).toEqual([
      [false, 'warn'],
      [true, 'pass'],
    ]);
    expect([run.steps.make!.status, run.steps.after!.status]).toEqual(['completed', 'completed']);
    expect(runEvents(project).find((e) => e.type === 'contract_checked')).toMatchObject({ passed: false, action: 'warn' });
  });

  it('continue fails the step but its dependents still run; the run fails', async () => {
    const project = llmProject(server, {}, policyPipeline('continue'));
    expect((await runWave(['run', 'p', '--output', 'quiet'], { cwd: project })).code).toBe(1);
    const run = latestRun(project);
    expect(run.steps.make!.contracts.map((c) => c.action)).toEqual(['continue']);
    expect([run.steps.make!.status, run.steps.after!.status, run.status]).toEqual(['failed', 'completed', 'failed']);
  });

  it('skip passes the step and checks no further contracts (the failing second one never runs)', async () => {
    const project = llmProject(server, {}, policyPipeline('skip'));
    expect((await runWave(['run', 'p', '--output', 'quiet'], { cwd: project })).code).toBe(0);
    const run = latestRun(project);
    expect(run.steps.make!.contracts.map((c) => c.action)).toEqual(['skip']);
    expect([run.steps.make!.status, run.steps.after!.status]).toEqual(['completed', 'completed']);
  });

  it('retry re-runs the step, and the dry run shows the requirements appended to a prompt', async () => {
    const project = llmProject(server, { model: '/s/text/not%20json' }, reviewPipeline(', on_failure: retry, max_retries: 2'));
    const dry = await runWave(['run', 'p', '--dry-run'], { cwd: project });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(REQUIREMENTS_HEADING);
    expect(dry.stdout).toContain('Your final answer must be JSON only');
    expect((await runWave(['run', 'p', '--output', 'quiet'], { cwd: project })).code).toBe(1);
    expect(latestRun(project).steps.review!.contracts.map((c) => c.action)).toEqual(['retry', 'retry', 'fail']);
  });
});
