import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWave, startWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { waitFor } from '../support/wait.js';
import { git, makeRepository } from '../fixtures/workspace/helpers.js';
import { attemptFile, claudeManifest, cliAvailable, param, reviewedPipeline, runAgentPipeline, runEvents, type ModelServer, startModelServer } from './agents.js';

const available = cliAvailable('claude');

const CRITERIA = 'The answer must be final: its verdict is approve.';

describe.skipIf(!available)('claude: an agent_review contract', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  const manifest = (reviewerScenario: string, tag: string) =>
    claudeManifest(
      { writer: `${server.url}/s/fixonfeedback/${tag}`, reviewer: `${server.url}/s/${reviewerScenario}` },
      '  writer: { adapter: writer }\n  critic: { adapter: reviewer, system_prompt_file: critic.md }',
    );

  it('fails the first answer on a fail verdict, retries the step with the review in its prompt, and passes the fixed answer', async () => {
    const review = '        on_failure: retry\n        max_retries: 1\n        timeout: 2m';
    const run = await runAgentPipeline(manifest('review', 'review-retry'), reviewedPipeline(review), { 'criteria.md': CRITERIA, 'critic.md': 'You are a strict critic.' });
    expect(run.code, run.stderr).toBe(0);
    const step = run.record.steps.work!;
    expect(step.status).toBe('completed');
    expect(step.attempts).toHaveLength(2);

    const reviews = run.events.filter((e) => e.type.startsWith('review_')).map((e) => [e.type, e.attempt, e.reviewer, e.verdict]);
    expect(reviews).toEqual([
      ['review_started', 1, 'critic', undefined],
      ['review_failed', 1, 'critic', 'fail'],
      ['review_started', 2, 'critic', undefined],
      ['review_completed', 2, 'critic', 'pass'],
    ]);
    const failed = run.events.find((e) => e.type === 'review_failed')!;
    expect(failed).toMatchObject({ reason: 'agent review verdict: fail — The first answer is not final.', issues: 1 });
    expect(run.events.find((e) => e.type === 'review_completed')).toMatchObject({ issues: 0, summary: 'The answer is final.' });
    expect(run.events.filter((e) => e.type === 'contract_checked').map((e) => [e.passed, e.action])).toEqual([
      [false, 'retry'],
      [true, 'pass'],
    ]);
    expect(step.reviews?.map((r) => [r.attempt, r.status, r.verdict])).toEqual([
      [1, 'failed', 'fail'],
      [2, 'passed', 'pass'],
    ]);

    // The review is an attempt of the step: recorded in its own folder, as the critic persona, with Wave's prompt.
    const recorded = JSON.parse(attemptFile(run.project, run.record, 'work', 1, 'review-1/attempt.json')) as Record<string, any>;
    expect(recorded).toMatchObject({ purpose: 'review', adapter: { name: 'reviewer', type: 'claude' }, persona: 'critic', systemPrompt: 'You are a strict critic.' });
    expect(recorded.prompt).toContain(`## Review Criteria\n\n${CRITERIA}\n\n## Context\n\n### Artifact: out\n\n`);
    expect(recorded.prompt).toContain('FIRST-ANSWER-QX7');
    expect(recorded.limits.timeoutMs).toBe(120_000);
    expect(attemptFile(run.project, run.record, 'work', 1, 'review-1/stdout')).toContain('The first answer is not final.');
    // The second review saw the second answer only.
    const second = JSON.parse(attemptFile(run.project, run.record, 'work', 2, 'review-1/attempt.json')) as Record<string, any>;
    expect(second.prompt).toContain('approve');
    expect(second.prompt).not.toContain('FIRST-ANSWER-QX7');
    // The reviewer really was asked through its own adapter's endpoint, and its tokens count in the step's.
    const asked = server.requests.filter((r) => r.scenario === 'review' && JSON.stringify(r.body ?? '').includes('## Review Criteria'));
    expect(asked.length).toBeGreaterThanOrEqual(2);
    const requests = run.events.filter((e) => e.type === 'model_request' && e.purpose === 'review');
    expect(requests.map((e) => [e.adapter, e.ok])).toEqual([
      ['reviewer', true],
      ['reviewer', true],
    ]);
    const reviewInput = requests.reduce((sum, e) => sum + (e.tokens.input as number), 0);
    const attemptsInput = step.attempts.reduce((sum, a) => sum + a.tokens.input, 0);
    expect(reviewInput).toBeGreaterThan(0);
    expect(step.tokens.input).toBe(attemptsInput + reviewInput);
    // The retry was told why: the review's verdict is in its prompt.
    expect(attemptFile(run.project, run.record, 'work', 2, 'attempt.json')).toContain('agent review verdict: fail — The first answer is not final.');
  });

  it("shows the reviewer the step's commits as a git diff, and fails a review over its token_budget (here only a warning)", async () => {
    const project = makeProject({ 'criteria.md': CRITERIA, 'critic.md': 'You are a strict critic.', 'src.txt': 'first line\n' });
    await makeRepository(project);
    await git(project, 'config', 'user.name', 'Wave Test');
    await git(project, 'config', 'user.email', 'test@example.invalid');
    const commit = param('echo reviewed line >> src.txt && git commit -qam "the step changed src.txt"');
    const wave = claudeManifest(
      { writer: `${server.url}/s/shell/${commit}`, reviewer: `${server.url}/s/review` },
      '  writer: { adapter: writer }\n  critic: { adapter: reviewer, system_prompt_file: critic.md }',
    );
    const pipeline = reviewedPipeline('        context: [{ source: git_diff }]\n        token_budget: 10\n        on_failure: warn')
      .replace('        context: [{ source: artifact, artifact: out }]\n', '')
      .replace('    output_artifacts:', '    workspace: { type: worktree, branch: review/diff }\n    output_artifacts:');
    await writeFile(join(project, 'wave.yaml'), wave);
    await mkdir(join(project, 'pipelines'), { recursive: true });
    await writeFile(join(project, 'pipelines', 'p.yaml'), pipeline);
    const result = await runWave(['run', 'p', '--output', 'json'], { cwd: project, timeout: 280_000 });
    expect(result.code, result.stderr).toBe(0);
    const record = latestRun(project);
    const prompt = (JSON.parse(attemptFile(project, record, 'work', 1, 'review-1/attempt.json')) as { prompt: string }).prompt;
    expect(prompt).toContain('## Context\n\n### Git Diff\n\ndiff --git a/src.txt b/src.txt');
    expect(prompt).toContain(' first line\n+reviewed line\n');
    const events = runEvents(project, record);
    const failed = events.find((e) => e.type === 'review_failed');
    expect(failed?.reason).toMatch(/^the review used \d+ tokens, over the contract's token_budget of 10, so it does not count$/);
    expect(events.filter((e) => e.type === 'contract_checked').map((e) => [e.passed, e.action])).toEqual([[false, 'warn']]);
    expect(record.steps.work!.status).toBe('completed');
  });

  it('cancelling the run stops a running review long before its timeout', async () => {
    const project = makeProject({
      'wave.yaml': manifest('hang', 'review-cancel'),
      'pipelines/p.yaml': reviewedPipeline('        timeout: 10m'),
      'criteria.md': CRITERIA,
      'critic.md': 'You are a strict critic.',
    });
    const child = startWave(['run', 'p', '--output', 'json'], { cwd: project, timeout: 280_000 });
    const events = () => join(project, '.wave', 'runs', latestRun(project).id, 'events.ndjson');
    await waitFor(() => existsSync(events()) && readFileSync(events(), 'utf8').includes('"review_started"'), 'the review to start', 120_000);
    // The review is under way once its request reached the reviewer's endpoint.
    await waitFor(() => server.requests.some((r) => r.scenario === 'hang' && JSON.stringify(r.body ?? '').includes('## Review Criteria')), 'the reviewer to ask', 60_000);
    const cancel = await runWave(['cancel', latestRun(project).id], { cwd: project });
    expect(cancel.code, cancel.stderr).toBe(0);
    const result = await child;
    expect(result.exitCode).toBe(143); // cancel sends SIGTERM: 128 + 15
    const record = latestRun(project);
    expect(record.status).toBe('cancelled');
    expect(record.steps.work!.status).toBe('cancelled');
    expect(readFileSync(events(), 'utf8')).not.toContain('"review_completed"');
  });
});
