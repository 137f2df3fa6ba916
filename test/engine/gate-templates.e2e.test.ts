import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave, startWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestEvents, runDirs } from '../support/runs.js';
import { waitFor } from '../support/wait.js';

// `{{ gate.<step>.choice|key|text|timestamp|target }}`: a later step reads how the gate was decided, as Wave names it.

const PIPELINE = `kind: WavePipeline
metadata: { name: decided }
steps:
  - id: approve
    type: gate
    gate:
      type: approval
      freeform: true
      choices:
        - { key: y, label: Ship it, target: ship }
        - { key: n, label: Abort, target: _fail }
  - id: ship
    dependencies: [approve]
    exec: { type: command, source: "printf '%s|%s|%s|%s|%s' '{{ gate.approve.choice }}' {{ gate.approve.key }} \\"{{ gate.approve.text }}\\" {{ gate.approve.target }} {{ gate.approve.timestamp }}" }
`;

describe("a gate's decision in a later step's template", () => {
  it('gives the label, key, text (as a value, never shell code), target and the time it was decided', async () => {
    const project = makeProject({ 'pipelines/decided.yaml': PIPELINE });
    const wave = startWave(['run', 'decided'], { cwd: project });
    const id = await waitFor(
      () => runDirs(project).length === 1 && latestEvents(project).some((e) => e.type === 'gate_waiting') && runDirs(project)[0]!.split('/').pop(),
      'the gate to wait',
    );
    const before = Date.now();
    const approved = await runWave(['approve', id, 'approve', '--choice', 'y', '--text', "$(touch PWNED) 'quoted'"], { cwd: project });
    expect(approved.code, approved.stderr).toBe(0);
    const done = await wave;
    expect(done.exitCode, String(done.stderr)).toBe(0);
    const stdout = readFileSync(join(runDirs(project)[0]!, 'steps', 'ship', 'attempt-1', 'stdout'), 'utf8');
    const [label, key, text, target, timestamp] = stdout.split('|');
    expect([label, key, text, target]).toEqual(['Ship it', 'y', "$(touch PWNED) 'quoted'", 'ship']);
    expect(timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Date.parse(timestamp!)).toBeGreaterThanOrEqual(before - 1000);
    expect(existsSync(join(project, 'PWNED'))).toBe(false);
    const dry = await runWave(['run', 'decided', '--dry-run'], { cwd: project });
    expect(dry.stdout).toContain('<gate.approve.choice>');
  });

  it('`wave validate` refuses a field a decision has not, and a step that is no gate the step depends on', async () => {
    const bad = PIPELINE.replace('{{ gate.approve.target }}', '{{ gate.approve.label }}').replace('{{ gate.approve.key }}', '{{ gate.ship.key }}');
    const project = makeProject({ 'pipelines/decided.yaml': bad });
    const checked = await runWave(['validate', 'pipelines/decided.yaml'], { cwd: project });
    expect(checked.code).toBe(2);
    const said = checked.stdout + checked.stderr;
    expect(said).toContain('`gate.ship.key` names no gate step `ship` depends on (gates it depends on: approve)');
    expect(said).toContain("`gate.approve.label`: a gate's decision has gate.approve.choice, gate.approve.key");
  });
  it("gives a child pipeline's input the decision too", async () => {
    const parent = `kind: WavePipeline
metadata: { name: parent }
steps:
  - id: pick
    type: gate
    gate: { type: approval, auto: true, default: slow, choices: [{ key: fast, label: Fast lane }, { key: slow, label: Slow lane }] }
  - id: go
    pipeline: echoer
    dependencies: [pick]
    input: "{{ gate.pick.choice }} ({{ gate.pick.key }})"
`;
    const echoer = `kind: WavePipeline
metadata: { name: echoer }
steps:
  - id: say
    exec: { type: command, source: "printf '%s' {{ input }}" }
`;
    const project = makeProject({ 'pipelines/parent.yaml': parent, 'pipelines/echoer.yaml': echoer });
    const run = await runWave(['run', 'parent'], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    const child = runDirs(project).find((dir) => dir.split('/').pop()!.startsWith('echoer'))!;
    expect(readFileSync(join(child, 'steps', 'say', 'attempt-1', 'stdout'), 'utf8')).toBe('Slow lane (slow)');
  });
});
