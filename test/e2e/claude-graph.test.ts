import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, makeRepository } from '../fixtures/workspace/helpers.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { claudeManifest, cliAvailable, runEvents, startModelServer, type ModelServer } from './agents.js';
import { requestsHolding, roundsUrl, runFile, runOf } from './composition.js';

// Graph routing (Wave's fix loop: edges, a conditional step, visit limits) with the real Claude Code as the fixing step, run by `wave run`.

const available = cliAvailable('claude');

/** Wave's fix loop (wave-test-hardening's shape) in one worktree: the tests fail until out.txt says `right`; Claude as `persona` fixes them. */
const fixLoop = (name: string, persona: string, fixKeys = '') => `kind: WavePipeline
metadata: { name: ${name} }
steps:
  - id: test
    type: command
    workspace: { type: worktree, branch: "{{ pipeline_id }}" }
    script: "cat out.txt 2>/dev/null || echo missing; test \\"$(cat out.txt 2>/dev/null)\\" = right"
  - id: check
    type: conditional
    dependencies: [test]
    edges:
      - { target: done, condition: outcome=success }
      - { target: fix }
  - id: fix
    persona: ${persona}
    dependencies: [check]
${fixKeys}    workspace: { type: worktree, branch: "{{ pipeline_id }}" }
    exec: { type: prompt, source: "The tests of ${name} fail: make out.txt hold the right answer." }
    edges:
      - { target: test }
  - id: done
    dependencies: [check]
    exec: { type: command, source: "echo done" }
`;

/** The routes a run took, as `from → to (outcome)`. */
function routesOf(project: string, pipeline: string): string[] {
  return runEvents(project, runOf(project, pipeline))
    .filter((e) => e.type === 'step_routed')
    .map((e) => `${e.stepId} → ${e.target} (${e.outcome}; again: ${(e.requeued as string[]).join(', ')})`);
}

// Each run starts Claude twice, one after another, on a shared machine.
describe.skipIf(!available)('claude: graph routing with the real Claude Code fixing what a command step tests', { timeout: 180_000 }, () => {
  let server: ModelServer;
  let project: string;
  beforeAll(async () => {
    server = await startModelServer();
    // fixer writes a wrong answer in its first run and the right one in its second; stubborn is never right.
    const rounds = (texts: string[]) => roundsUrl(server, 'out.txt', texts);
    project = makeProject({
      'wave.yaml': claudeManifest({ fixer: rounds(['wrong', 'right']), stubborn: rounds(['wrong']) }, '  fixer: { adapter: fixer }\n  stubborn: { adapter: stubborn }'),
      'pipelines/fixloop.yaml': fixLoop('fixloop', 'fixer'),
      'pipelines/stuck.yaml': fixLoop('stuck', 'stubborn', '    max_visits: 2\n'),
    });
    await makeRepository(project);
  });
  afterAll(() => server?.close());

  it('routes the failing tests to Claude until its second fix makes them pass, then on to done', async () => {
    const run = await runWave(['run', 'fixloop', '--output', 'text'], { cwd: project, timeout: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const record = runOf(project, 'fixloop');
    const { test, check, fix, done } = record.steps;
    expect([test!.visits, check!.visits, fix!.visits, done!.visits]).toEqual([3, 3, 2, 1]);
    expect(fix!.attempts.map((a) => [a.attempt, a.visit, a.adapter])).toEqual([
      [1, 1, 'fixer'],
      [2, 2, 'fixer'],
    ]);
    expect(fix!.attempts.map((a) => a.exitCode)).toEqual([0, 0]);
    // The step and the run count the tokens of both of Claude's visits, not only the last one's.
    const spent = fix!.attempts.reduce((sum, a) => sum + a.tokens.input, 0);
    expect(spent).toBeGreaterThan(fix!.attempts[1]!.tokens.input);
    expect([fix!.tokens.input, record.tokens.input]).toEqual([spent, spent]);
    // The fix step keeps its last visit when the walk does not come back to it (only a route enters it).
    expect([test!.status, check!.status, fix!.status, done!.status]).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(routesOf(project, 'fixloop')).toEqual([
      'check → fix (failure; again: )',
      'fix → test (success; again: test, check)',
      'check → fix (failure; again: fix)',
      'fix → test (success; again: test, check)',
      'check → done (success; again: )',
    ]);
    // What the tests saw on each visit: nothing, Claude's first answer, its second; the last visit's is the step's output.
    expect(runFile(project, record.id, 'steps/test/output.txt').trim()).toBe('right');
    expect(requestsHolding(server.requests, 'The tests of fixloop fail').length).toBeGreaterThanOrEqual(2);
    expect(await git(project, 'branch', '--list', record.id)).toContain(record.id);
    const status = await runWave(['status', record.id], { cwd: project });
    expect(status.stdout).toMatch(/test +completed .*visited 3×/);
    expect(status.stdout).toMatch(/fix .*2 attempts +visited 2×/);
  });

  it("stops the loop at the fixing step's max_visits when Claude's fix never makes the tests pass (route_stopped, exit 1)", async () => {
    const run = await runWave(['run', 'stuck', '--output', 'text'], { cwd: project, timeout: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const record = runOf(project, 'stuck');
    expect(record.status).toBe('failed');
    const fix = record.steps.fix!;
    expect(fix.visits).toBe(2);
    expect(fix.attempts).toHaveLength(2);
    expect(fix.failure).toMatchObject({ class: 'route_stopped', message: 'step `fix` reached its limit of 2 visits (max_visits)' });
    expect(record.steps.test!.visits).toBe(3);
    expect(record.steps.done!.status).not.toBe('completed');
    expect(run.stdout).toContain('route_stopped: step `fix` reached its limit of 2 visits (max_visits)');
  });
});
