import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepository } from '../fixtures/workspace/helpers.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { claudeManifest, cliAvailable, param, runEvents, startModelServer, type ModelServer } from './agents.js';
import { requestsHolding, roundsUrl, runFile, runOf } from './composition.js';

// Rework (Wave's on_failure: rework, rework_only) with the real Claude Code on both sides, run by `wave run`: Claude's
// answer fails its contract, a Claude rework step fixes the file in the worktree they share, the contract is checked again.

const available = cliAvailable('claude');

const VERDICT_SCHEMA = JSON.stringify({ type: 'object', required: ['verdict'], properties: { verdict: { enum: ['approve', 'reject'] } } });

/** Claude as `drafter` answers into verdict.json, checked by `contract`; Claude as `mender` is its rework step; `ship` prints the kept artifact. */
const reworked = (name: string, contract: string) => `kind: WavePipeline
metadata: { name: ${name} }
steps:
  - id: answer
    persona: drafter
    workspace: { type: worktree, branch: "{{ pipeline_id }}" }
    exec: { type: prompt, source: "Write your verdict on ${name} into verdict.json." }
    output_artifacts: [{ name: verdict, path: verdict.json }]
    handover:
      contract: { ${contract}, on_failure: rework, rework_step: mend }
  - id: mend
    rework_only: true
    persona: mender
    workspace: { type: worktree, branch: "{{ pipeline_id }}" }
    exec: { type: prompt, source: "Mend verdict.json of ${name}: its first answer was {{ steps.answer.output }}" }
    output_artifacts: [{ name: verdict, path: verdict.json }]
  - id: ship
    dependencies: [answer]
    memory: { inject_artifacts: [{ step: answer, artifact: verdict, as: verdict }] }
    exec: { type: command, source: "cat {{ artifacts.verdict }}" }
`;

// Each run starts Claude two or three times, one after another, on a shared machine.
describe.skipIf(!available)('claude: a Claude rework step fixes the work of a Claude step whose contract failed', { timeout: 180_000 }, () => {
  let server: ModelServer;
  let project: string;
  beforeAll(async () => {
    server = await startModelServer();
    const rounds = (texts: string[]) => roundsUrl(server, 'verdict.json', texts);
    project = makeProject({
      'wave.yaml': claudeManifest(
        {
          drafter: `${server.url}/s/write/verdict.json/${param('{"verdict": "maybe"}')}`,
          mender: rounds(['{"verdict": "approve"}']),
          slowmender: rounds(['{"verdict": "reject"}', '{"verdict": "approve"}']),
        },
        '  drafter: { adapter: drafter }\n  mender: { adapter: mender }\n  slowmender: { adapter: slowmender }',
      ),
      'verdict.schema.json': VERDICT_SCHEMA,
      'pipelines/schema.yaml': reworked('schema', 'type: json_schema, source: verdict.json, schema_path: verdict.schema.json'),
      'pipelines/suite.yaml': reworked('suite', `type: test_suite, command: "grep -q approve verdict.json", max_retries: 2`).replace('persona: mender', 'persona: slowmender'),
    });
    await makeRepository(project);
  });
  afterAll(() => server?.close());

  const run = async (pipeline: string) => {
    const result = await runWave(['run', pipeline, '--output', 'text'], { cwd: project, timeout: 170_000 });
    const record = runOf(project, pipeline);
    return { ...result, record, events: runEvents(project, record) };
  };

  it("checks the json_schema contract again on the rework step's fix: failed, then passed; the rework attempt is linked to the failed step", async () => {
    const { code, stdout, stderr, record, events } = await run('schema');
    expect(code, stdout + stderr).toBe(0);
    const { answer, mend, ship } = record.steps;
    expect(answer).toMatchObject({ status: 'completed', rework: { target: 'mend', rounds: 1 } });
    expect(answer!.attempts).toHaveLength(1);
    expect(answer!.contracts.map((c) => [c.passed, c.action, c.round])).toEqual([
      [false, 'rework', undefined],
      [true, 'pass', 1],
    ]);
    expect(events.filter((e) => e.type === 'contract_checked').map((e) => [e.stepId, e.passed])).toEqual([
      ['answer', false],
      ['answer', true],
    ]);
    expect(events.filter((e) => e.type === 'step_reworking').map((e) => [e.stepId, e.target, e.round, e.failure.class])).toEqual([['answer', 'mend', 1, 'contract_failed']]);
    expect(mend!.attempts.map((a) => [a.attempt, a.kind, a.reworkOf, a.adapter])).toEqual([[1, 'rework', 'answer', 'mender']]);
    // Claude's rework run was told what failed; the step after got the fixed file as the failed step's artifact.
    const told = requestsHolding(server.requests, 'Mend verdict.json of schema');
    expect(told.length).toBeGreaterThan(0);
    expect(JSON.stringify(told[0]!.body)).toContain('## REWORK CONTEXT');
    expect(ship!.status).toBe('completed');
    expect(runFile(project, record.id, 'steps/ship/output.txt')).toContain('{"verdict": "approve"}');
    const status = await runWave(['status', record.id], { cwd: project });
    expect(status.stdout).toMatch(/answer +completed .*reworked by mend$/m);
  });

  it('gives a test_suite contract a second rework round when the first fix still fails, and passes on the second', async () => {
    const { code, stdout, stderr, record } = await run('suite');
    expect(code, stdout + stderr).toBe(0);
    const { answer, mend } = record.steps;
    expect(answer).toMatchObject({ status: 'completed', rework: { target: 'mend', rounds: 2 } });
    expect(answer!.contracts.map((c) => [c.passed, c.action, c.round])).toEqual([
      [false, 'rework', undefined],
      [false, 'rework', 1],
      [true, 'pass', 2],
    ]);
    expect(mend!.attempts.map((a) => [a.attempt, a.kind, a.reworkOf])).toEqual([
      [1, 'rework', 'answer'],
      [2, 'rework', 'answer'],
    ]);
    expect(runFile(project, record.id, 'steps/ship/output.txt')).toContain('{"verdict": "approve"}');
    expect(stdout).toMatch(/answer +contract 1:test_suite grep -q approve verdict.json passed after rework round 2/);
  });
});
