import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import { formatGithubSummary } from '../../src/report/github/github-summary.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { schemaErrors } from '../../src/json-schema/schema-validator.js';
import { runWave } from '../support/cli.js';
import { startModelServer, type ModelServer } from '../support/model-server.mjs';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';

// `wave run --simulate`: agent and model attempts answered without an agent CLI, a model server, a key or a token.

const PLAN_SCHEMA = {
  type: 'object',
  required: ['title', 'tasks'],
  properties: { title: { type: 'string', minLength: 3 }, tasks: { type: 'array', minItems: 2, maxItems: 3, items: { type: 'string', pattern: '^[a-z]{3,8}$' } } },
};
const RESULT_SCHEMA = { type: 'object', required: ['done', 'score'], properties: { done: { type: 'boolean' }, score: { type: 'integer', minimum: 1, maximum: 9 } } };

/** Claude and OpenCode personas, and an llm adapter on the scripted model server (the judge and the `critic` persona). */
const manifest = (server: ModelServer) => `kind: WaveManifest
metadata: { name: sim }
adapters:
  claude: { type: claude }
  opencode: { type: opencode }
  model: { type: llm, base_url: "${server.url}/s/text/v1", model: answer-model }
personas:
  planner: { adapter: claude }
  worker: { adapter: opencode }
  critic: { adapter: model }
runtime:
  timeouts: { process_grace_seconds: 1 }
`;

/**
 * Plan (claude: json_schema, non_empty_file, llm_judge) → approval gate → iterate over the plan's tasks (opencode) →
 * critic (llm, in plan's thread with a summary of it, reviewed by the planner) → a command.
 */
const PLAN_PIPELINE = `kind: WavePipeline
metadata: { name: plan }
steps:
  - id: plan
    persona: planner
    thread: t
    exec: { type: prompt, source: "Plan the work for {{ input }}" }
    output_artifacts: [{ name: plan, path: plan.json }, { name: notes, path: notes.md }]
    handover:
      contracts:
        - { type: json_schema, source: plan.json, schema: ${JSON.stringify(PLAN_SCHEMA)} }
        - { type: non_empty_file, source: notes.md }
        - { type: llm_judge, adapter: model, source: notes.md, criteria: [Clear] }
  - id: approve
    dependencies: [plan]
    gate:
      type: approval
      message: Go on?
      choices:
        - { key: n, label: Stop, target: _fail }
        - { key: y, label: Go }
  - id: each
    dependencies: [approve]
    iterate: { over: "{{ plan.out.plan.tasks }}", mode: parallel }
    pipeline: task
    input: "{{ item }}"
  - id: critic
    dependencies: [each]
    persona: critic
    thread: t
    fidelity: summary
    exec: { type: prompt, source: "Criticise {{ steps.each.output }}" }
    handover:
      contract: { type: agent_review, persona: planner, criteria_path: criteria.md }
  - id: report
    dependencies: [critic]
    exec: { type: command, source: "echo collected={{ steps.each.output }}" }
`;

const TASK_PIPELINE = `kind: WavePipeline
metadata: { name: task }
steps:
  - id: do
    persona: worker
    exec: { type: prompt, source: "Do {{ input }}" }
    output_artifacts: [{ name: result, path: result.json }]
    handover:
      contract: { type: json_schema, schema: ${JSON.stringify(RESULT_SCHEMA)} }
pipeline_outputs:
  result: { step: do, artifact: result }
`;

let server: ModelServer;
beforeAll(async () => void (server = await startModelServer()));
afterAll(() => server.close());

/** A PATH without the agent CLIs: the system folders only, none holding claude or opencode. */
const BARE_PATH = ['/usr/bin', '/bin'].join(delimiter);

function simProject(files: Record<string, string> = {}): string {
  return makeProject({
    'wave.yaml': manifest(server),
    'pipelines/plan.yaml': PLAN_PIPELINE,
    'pipelines/task.yaml': TASK_PIPELINE,
    'criteria.md': 'The critique is fair.\n',
    ...files,
  });
}

const simulate = (project: string, args: string[]) => runWave(['run', ...args], { cwd: project, env: { PATH: BARE_PATH } });

function record(dir: string): RunRecord {
  return JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord;
}

function events(dir: string): RunEvent[] {
  return readFileSync(join(dir, 'events.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent);
}

/** The answer of the step's last attempt, as its attempt_finished event recorded it. */
function answerOf(dir: string, stepId: string): string | undefined {
  return events(dir).findLast((e): e is Extract<RunEvent, { type: 'attempt_finished' }> => e.type === 'attempt_finished' && e.stepId === stepId)?.text;
}

/** The top-level run folders of the project (its child runs left out), oldest first. */
function topRuns(project: string): string[] {
  return runDirs(project).filter((dir) => record(dir).parentId === undefined);
}

describe('wave run --simulate', () => {
  it('runs agent steps, a judge, an llm step, a gate and an iterate fan-out with no agent CLI and no model request, deterministically', async () => {
    for (const dir of BARE_PATH.split(delimiter)) for (const cli of ['claude', 'opencode']) expect(existsSync(join(dir, cli))).toBe(false);
    const project = simProject();
    const first = await simulate(project, ['plan', '--simulate', '--input', 'x', '--output', 'text']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(server.requests).toEqual([]);
    const [dir] = topRuns(project);
    const run = record(dir!);
    expect(run.options).toMatchObject({ simulate: true });
    const plan = JSON.parse(readFileSync(join(dir!, 'artifacts/plan/plan.json'), 'utf8')) as { tasks: string[] };
    expect(schemaErrors(PLAN_SCHEMA, plan)).toEqual([]);
    expect(readFileSync(join(dir!, 'artifacts/plan/notes.md'), 'utf8')).toBe('[simulated] notes.md of step plan\n');
    // Each task of the generated plan ran a child, whose generated result satisfies its own schema.
    expect(run.steps.each!.children).toHaveLength(plan.tasks.length);
    const collected = JSON.parse(readFileSync(join(dir!, 'artifacts/each/collected-output.json'), 'utf8')) as unknown[];
    for (const result of collected) expect(schemaErrors(RESULT_SCHEMA, result)).toEqual([]);
    // The gate took the first choice that goes on (it has no default), recorded as approved by --simulate.
    expect(run.steps.approve!.gate!.decision).toMatchObject({ by: 'simulate', key: 'y' });
    expect(run.steps.plan!.attempts[0]).toMatchObject({ simulated: true, tokens: { input: 0, output: 0 }, costUsd: 0 });
    expect(run.steps.plan!.attempts[0]!.sessionId).toBeUndefined();
    expect(run.steps.plan!.simulated).toBe(2);
    expect(run.steps.report!.simulated).toBeUndefined();
    // The iterate step counts its children's simulated attempts, one each.
    expect(run.steps.each!.simulated).toBe(plan.tasks.length);
    expect(answerOf(dir!, 'critic')).toBe('[simulated] critic');
    expect(events(dir!).filter((e) => e.type === 'simulated')).toEqual([
      expect.objectContaining({ stepId: 'plan', attempt: 1, purpose: 'step', answer: 'placeholder', generated: ['plan.json'], placeholders: ['notes.md'], fixtures: [] }),
      expect.objectContaining({ stepId: 'plan', attempt: 1, purpose: 'judge', answer: 'placeholder' }),
      expect.objectContaining({ stepId: 'critic', attempt: 1, purpose: 'thread-summary', answer: 'placeholder' }),
      expect.objectContaining({ stepId: 'critic', attempt: 1, purpose: 'step', answer: 'placeholder' }),
      expect.objectContaining({ stepId: 'critic', attempt: 1, purpose: 'review', answer: 'placeholder' }),
    ]);
    // The judge's and the reviewer's answers pass their contracts; the summary stands in for the thread.
    expect(run.steps.plan!.contracts.map((c) => c.passed)).toEqual([true, true, true]);
    expect(run.steps.critic!.reviews).toEqual([expect.objectContaining({ status: 'passed', verdict: 'pass' })]);
    expect(events(dir!).find((e) => e.type === 'thread_context')).toMatchObject({ stepId: 'critic', fidelity: 'summary', steps: ['plan'] });
    // The summary marks each simulated step and counts the simulated attempts.
    expect(first.stdout).toMatch(/✓ plan +completed.*simulated/);
    expect(first.stdout).not.toMatch(/✓ report +completed.*simulated/);
    // plan's attempt and judge, critic's summary, attempt and review, one attempt in each task's child.
    const attempts = `${5 + plan.tasks.length} attempts`;
    expect(first.stdout).toContain(`simulated: ${attempts}`);
    const status = await runWave(['status', run.id], { cwd: project });
    expect(status.stdout).toMatch(/✓ critic +completed.*simulated/);
    expect(status.stdout).toContain(`simulated: ${attempts}`);
    const summary = formatGithubSummary(run, { redactor: { redact: (text: string) => text }, runDir: dir! });
    expect(summary).toContain('| `plan` | completed (simulated) |');
    expect(summary).toContain(`- Simulated (\`wave run --simulate\`): ${attempts} answered without an agent or a model`);
    // The same pipeline simulated again writes the same files.
    const second = await simulate(project, ['plan', '--simulate', '--input', 'x', '--output', 'quiet']);
    expect(second.code, second.stderr).toBe(0);
    const again = topRuns(project)[1]!;
    for (const file of ['artifacts/plan/plan.json', 'artifacts/plan/notes.md', 'artifacts/each/collected-output.json'])
      expect(readFileSync(join(again, file), 'utf8')).toBe(readFileSync(join(dir!, file), 'utf8'));
    expect(server.requests).toEqual([]);
  });

  it('generates the answer from the schema when a contract checks the answer itself, or the step has an extract', async () => {
    const verdict = `{ type: object, required: [verdict], properties: { verdict: { enum: [approve] } } }`;
    const project = simProject({
      'pipelines/answers.yaml': `kind: WavePipeline
metadata: { name: answers }
steps:
  - id: judged
    persona: planner
    exec: { type: prompt, source: "Judge" }
    output_artifacts: [{ name: verdict, source: stdout }]
    handover: { contract: { type: json_schema, schema: ${verdict} } }
  - id: extracted
    persona: worker
    exec: { type: prompt, source: "Extract" }
    extract: { schema: ${verdict} }
  - id: show
    dependencies: [judged, extracted]
    exec: { type: command, source: "echo {{ steps.judged.output.verdict }} {{ steps.extracted.output.verdict }}" }
`,
    });
    const result = await simulate(project, ['answers', '--simulate', '--output', 'quiet']);
    expect(result.code, result.stderr).toBe(0);
    const dir = topRuns(project)[0]!;
    expect(JSON.parse(readFileSync(join(dir, 'artifacts/judged/verdict'), 'utf8'))).toEqual({ verdict: 'approve' });
    expect(readFileSync(join(dir, 'steps/show/attempt-1/stdout'), 'utf8').trim()).toBe('approve approve');
    expect(
      events(dir)
        .filter((e) => e.type === 'simulated')
        .map((e) => e.type === 'simulated' && `${e.stepId} ${e.purpose} ${e.answer}`),
    ).toEqual([expect.stringMatching(/^(judged|extracted) step schema$/), expect.stringMatching(/^(judged|extracted) step schema$/)]);
  });

  it('fails a step whose schema nothing can satisfy with simulate_unsatisfiable', async () => {
    const impossible = TASK_PIPELINE.replace('"minimum":1,"maximum":9', '"minimum":9,"maximum":1');
    const project = simProject({ 'pipelines/task.yaml': impossible });
    const result = await simulate(project, ['task', '--simulate', '--input', 'x', '--output', 'quiet']);
    expect(result.code).toBe(1);
    const failure = record(topRuns(project)[0]!).steps.do!.failure;
    expect(failure).toMatchObject({
      class: 'simulate_unsatisfiable',
      message: expect.stringContaining('result.json of step `do`'),
      hint: expect.stringContaining('--simulate-outputs'),
    });
  });

  it('takes the files and answers of --simulate-outputs, generating what they leave out', async () => {
    const project = simProject({
      'fixtures/plan/plan.json': '{"title": "fixed", "tasks": ["one", "two"]}\n',
      'fixtures/plan/answer.txt': 'the planned answer',
    });
    const result = await simulate(project, ['plan', '--simulate', '--simulate-outputs', 'fixtures', '--input', 'x', '--output', 'quiet']);
    expect(result.code, result.stderr).toBe(0);
    const dir = topRuns(project)[0]!;
    const run = record(dir);
    expect(run.options.simulateOutputs).toBe(join(project, 'fixtures'));
    expect(readFileSync(join(dir, 'artifacts/plan/plan.json'), 'utf8')).toBe('{"title": "fixed", "tasks": ["one", "two"]}\n');
    expect(answerOf(dir, 'plan')).toBe('the planned answer');
    expect(run.steps.each!.children).toHaveLength(2);
    expect(events(dir).find((e) => e.type === 'simulated')).toMatchObject({ answer: 'fixture', fixtures: ['plan.json'], placeholders: ['notes.md'], generated: [] });
  });

  it('refuses a fixture that a symlink or a .. path leads out of its folder', async () => {
    const project = simProject({ 'secret.json': '{"title": "stolen", "tasks": ["abc", "def"]}' });
    mkdirSync(join(project, 'fixtures/plan'), { recursive: true });
    symlinkSync(join(project, 'secret.json'), join(project, 'fixtures/plan/plan.json'));
    const linked = await simulate(project, ['plan', '--simulate', '--simulate-outputs', 'fixtures', '--input', 'x', '--output', 'quiet']);
    expect(linked.code).toBe(1);
    expect(record(topRuns(project)[0]!).steps.plan!.failure).toMatchObject({
      class: 'simulate_fixture_invalid',
      message: 'the --simulate-outputs fixture plan/plan.json is refused: a symlink leads out of the folder',
    });
    const dotted = simProject({ 'pipelines/task.yaml': TASK_PIPELINE.replace('path: result.json', 'path: ../../do.json') });
    writeFileSync(join(dotted, 'do.json'), '{}');
    mkdirSync(join(dotted, 'fixtures'));
    const escaped = await simulate(dotted, ['task', '--simulate', '--simulate-outputs', 'fixtures', '--input', 'x', '--output', 'quiet']);
    expect(escaped.code).toBe(1);
    expect(record(topRuns(dotted)[0]!).steps.do!.failure).toMatchObject({
      class: 'simulate_fixture_invalid',
      message: expect.stringContaining('its path leads out of the folder'),
    });
  });

  it('stays simulated when resumed', async () => {
    const flag = join(mkdtempSync(join(tmpdir(), 'wave-simulate-')), 'go');
    const gated = PLAN_PIPELINE.replace('source: "echo collected={{ steps.each.output }}"', `source: "test -f ${flag}"`);
    const project = simProject({ 'pipelines/plan.yaml': gated });
    const failed = await simulate(project, ['plan', '--simulate', '--input', 'x', '--output', 'quiet']);
    expect(failed.code).toBe(1);
    const dir = topRuns(project)[0]!;
    expect(record(dir).steps.report!.status).toBe('failed');
    writeFileSync(flag, '');
    const resumed = await runWave(['resume', record(dir).id, '--from-step', 'critic', '--output', 'quiet'], { cwd: project, env: { PATH: BARE_PATH } });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`simulated: ${5 + record(dir).steps.each!.children!.length} attempts`);
    const critic = events(dir).filter((e) => e.type === 'simulated' && e.stepId === 'critic');
    expect(critic.map((e) => e.type === 'simulated' && `${e.purpose} ${e.attempt}`)).toEqual(['thread-summary 1', 'step 1', 'review 1', 'thread-summary 2', 'step 2', 'review 2']);
    expect(server.requests).toEqual([]);
  });

  it('refuses --simulate with --dry-run, --approved-in or --run-id, and --simulate-outputs without --simulate, by name', async () => {
    const project = simProject();
    for (const [flags, named] of [
      [['--dry-run'], '--simulate cannot be used with --dry-run'],
      [['--approved-in', 'production'], '--simulate cannot be used with --approved-in'],
      [['--run-id', 'plan-1'], '--simulate cannot be used with --run-id'],
    ] as const) {
      const refused = await simulate(project, ['plan', '--simulate', ...flags]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(named);
    }
    const alone = await simulate(project, ['plan', '--simulate-outputs', '.']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('hint: Add --simulate, or drop --simulate-outputs.');
    expect(runDirs(project)).toEqual([]);
  });
});
