import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWave, startWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestEvents, latestRun } from '../support/runs.js';
import { waitFor } from '../support/wait.js';
import { claudeManifest, cliAvailable, startModelServer, type ModelServer } from './agents.js';
import { requestsHolding, stepArtifact } from './composition.js';

// An approval gate between two Claude steps, run by `wave run` with no terminal and answered from a second shell by
// `wave approve`: the second Claude step's prompt carries the decision; kill -9 and `wave resume`; a choice going back.

const available = cliAvailable('claude');

/** Claude plans (its prompt quotes the input), the gate asks, Claude builds from the decision's label and text. */
const GATED = `kind: WavePipeline
metadata: { name: gated }
steps:
  - id: plan
    persona: planner
    exec: { type: prompt, source: "Write <<a plan for {{ input }}>> into plan.txt." }
    output_artifacts: [{ name: plan, path: plan.txt }]
  - id: approve
    dependencies: [plan]
    gate:
      type: approval
      message: Ship the plan?
      choices:
        - { key: y, label: Ship, target: build }
        - { key: r, label: Revise, target: plan }
        - { key: n, label: Abort, target: _fail }
      default: y
      freeform: true
  - id: build
    persona: builder
    dependencies: [approve]
    exec: { type: prompt, source: "Build {{ input }}. Write <<{{ input }} {{ gate.approve.choice }}: {{ gate.approve.text }}>> into done.txt." }
    output_artifacts: [{ name: done, path: done.txt }]
`;

// Each run starts Claude two or three times and waits for answers from another shell, on a shared machine.
describe.skipIf(!available)('claude: an approval gate between Claude steps, answered from another shell', { timeout: 180_000 }, () => {
  let server: ModelServer;
  beforeAll(async () => void (server = await startModelServer()));
  afterAll(() => server?.close());

  /** A project of GATED whose run (`wave run gated --input <input>`, no terminal) is started; resolves once the gate waits `times` times. */
  const startGated = async (input: string) => {
    const project = makeProject({
      'wave.yaml': claudeManifest(
        { planner: `${server.url}/s/copy/plan.txt`, builder: `${server.url}/s/copy/done.txt` },
        '  planner: { adapter: planner }\n  builder: { adapter: builder }',
      ),
      'pipelines/gated.yaml': GATED,
    });
    const wave = startWave(['run', 'gated', '--input', input, '--output', 'text'], { cwd: project, timeout: 170_000 });
    const id = await untilWaiting(project, 1);
    return { project, wave, id };
  };
  const untilWaiting = (project: string, times: number) =>
    waitFor(() => latestEvents(project).filter((e) => e.type === 'gate_waiting').length === times && latestRun(project).id, `the gate to wait (${times})`, 120_000);
  const approve = (project: string, id: string, choice: string, text: string) => runWave(['approve', id, 'approve', '--choice', choice, '--text', text], { cwd: project });
  /** The model requests of a Claude run whose prompt held `text`. */
  const asked = (text: string) => requestsHolding(server.requests, text).length;

  it("goes on when `wave approve --choice --text` answers from another shell; the next Claude step's prompt holds the choice's label and the text", async () => {
    const { project, wave, id } = await startGated('alpha');
    expect(asked('Build alpha')).toBe(0);
    const approved = await approve(project, id, 'y', 'ship it today');
    expect(approved.stdout).toBe(`gate approve of run ${id} approved with \`y\``);
    const done = await wave;
    expect(done.exitCode, String(done.stdout) + String(done.stderr)).toBe(0);
    const record = latestRun(project);
    expect(record.steps.approve!.gate).toMatchObject({ status: 'resolved', decision: { by: 'person', key: 'y', label: 'Ship', text: 'ship it today', target: 'build' } });
    // The label (Wave's `choice`) and the text reached Claude, whose Write tool made the build's file from them.
    expect(asked('Write <<alpha Ship: ship it today>> into done.txt.')).toBeGreaterThan(0);
    expect(stepArtifact(project, record, 'build', 'done')).toBe('alpha Ship: ship it today');
    expect(stepArtifact(project, record, 'plan', 'plan')).toBe('a plan for alpha');
  });

  it('after a kill -9 of the waiting run, `wave resume` waits at the gate again without running Claude again, and takes the answer', async () => {
    const { project, wave, id } = await startGated('beta');
    wave.kill('SIGKILL');
    await wave;
    const resumed = startWave(['resume', id, '--output', 'text'], { cwd: project, timeout: 170_000 });
    await untilWaiting(project, 2);
    await approve(project, id, 'y', 'after the crash');
    const done = await resumed;
    expect(done.exitCode, String(done.stdout) + String(done.stderr)).toBe(0);
    const record = latestRun(project);
    expect(record.id).toBe(id);
    expect(record.steps.plan!.attempts).toHaveLength(1);
    expect(asked('a plan for beta')).toBeGreaterThan(0);
    expect(record.steps.approve!.gate!.decision).toMatchObject({ by: 'person', key: 'y', text: 'after the crash' });
    expect(asked('Write <<beta Ship: after the crash>> into done.txt.')).toBeGreaterThan(0);
    expect(stepArtifact(project, record, 'build', 'done')).toBe('beta Ship: after the crash');
  });

  it('a choice whose target is the first Claude step runs it again, then the gate waits again and takes the other choice', async () => {
    const { project, wave, id } = await startGated('gamma');
    await approve(project, id, 'r', 'more detail');
    await untilWaiting(project, 2);
    await approve(project, id, 'y', 'good now');
    const done = await wave;
    expect(done.exitCode, String(done.stdout) + String(done.stderr)).toBe(0);
    const { steps, tokens } = latestRun(project);
    expect([steps.plan!.visits, steps.approve!.visits, steps.build!.visits]).toEqual([2, 2, 1]);
    expect(steps.plan!.attempts.map((a) => [a.visit, a.adapter, a.exitCode])).toEqual([
      [1, 'planner', 0],
      [2, 'planner', 0],
    ]);
    // The run's tokens hold both of the planner's runs and the builder's.
    const claudeInput = [...steps.plan!.attempts, ...steps.build!.attempts].reduce((sum, a) => sum + a.tokens.input, 0);
    expect([steps.plan!.tokens.input + steps.build!.tokens.input, tokens.input]).toEqual([claudeInput, claudeInput]);
    const routed = latestEvents(project).flatMap((e) => (e.type === 'step_routed' ? [[e.stepId, e.target, e.requeued]] : []));
    expect(routed).toEqual([
      ['approve', 'plan', ['plan', 'approve']],
      ['approve', 'build', []],
    ]);
    const decisions = latestEvents(project).flatMap((e) => (e.type === 'gate_resolved' ? [[e.key, e.text]] : []));
    expect(decisions).toEqual([
      ['r', 'more detail'],
      ['y', 'good now'],
    ]);
    // Only the second answer reached the build: the Revise one sent the walk back before it.
    expect(asked('Write <<gamma Ship: good now>> into done.txt.')).toBeGreaterThan(0);
    expect(asked('gamma Revise')).toBe(0);
    expect(String(done.stdout)).toContain('approve → plan, outcome success; again: plan, approve');
  });
});
