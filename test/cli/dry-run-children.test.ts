import { describe, expect, it } from 'vitest';
import { MAX_CHILD_DEPTH } from '../../src/app/child-runs.js';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';

// `wave run --dry-run` of a pipeline with composition steps: the plans of the children, under the steps that start them.

const child = (name: string, command: string) => commandPipeline(name, [['work', [], command]]);

const PARENT = `kind: WavePipeline
metadata: { name: parent }
steps:
  - id: list
    exec: { type: command, source: "echo '[1,2]'" }
  - id: sub
    pipeline: writer
    input: "for {{ input }}"
  - id: literal
    iterate: { over: '[{"p":"upper","w":"ab"},{"p":"lower","w":"CD"}]' }
    pipeline: "{{ item.p }}"
    input: "{{ item.w }}"
  - id: chosen
    dependencies: [list]
    iterate: { over: "{{ list.output }}" }
    pipeline: "{{ item }}"
  - id: fixed
    dependencies: [list]
    iterate: { over: "{{ list.output }}" }
    pipeline: writer
  - id: route
    branch:
      on: "{{ input }}"
      cases: { high: upper, low: lower, none: skip, default: writer }
`;

/** A chain of pipelines one past the depth limit: each one's step runs the next. */
function chain(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let n = 0; n <= MAX_CHILD_DEPTH + 1; n++) {
    const step = n <= MAX_CHILD_DEPTH ? `  - id: next\n    pipeline: p${n + 1}\n` : '  - id: last\n    exec: { type: command, source: "echo last" }\n';
    files[`pipelines/p${n}.yaml`] = `kind: WavePipeline\nmetadata: { name: p${n} }\nsteps:\n${step}`;
  }
  return files;
}

describe('wave run --dry-run of composition steps', () => {
  it("prints each child's plan indented under its step: a pipeline step's, each literal item's, each branch case's; a templated name over a runtime list is chosen at run time", async () => {
    const project = makeProject({
      'pipelines/parent.yaml': PARENT,
      'pipelines/writer.yaml': child('writer', 'echo writes {{ input }}'),
      'pipelines/upper.yaml': child('upper', 'echo {{ input }} | tr a-z A-Z'),
      'pipelines/lower.yaml': child('lower', 'echo {{ input }} | tr A-Z a-z'),
    });
    const dry = await runWave(['run', 'parent', '--dry-run', '--input', 'hello'], { cwd: project });
    expect(dry.code, dry.stderr).toBe(0);
    // Each top-level step's part of the text (a child's steps are indented).
    const sections = new Map(dry.stdout.split('\nStep ').map((part) => [part.split('\n', 1)[0]!, part]));
    const section = (id: string) => sections.get(id) ?? '';
    expect(section('sub')).toContain(
      [
        '  child plan: writer',
        `    Pipeline writer (${project}/pipelines/writer.yaml)`,
        '    Input: for hello',
        '',
        '    Order (steps in one group run in parallel):',
        '      1. work',
      ].join('\n'),
    );
    expect(section('sub')).toContain(['    Step work', '      runs on:   shell command'].join('\n'));
    expect(section('sub')).toContain('        │ echo writes for hello');
    expect(section('literal')).toContain('  child plan of item 1 ({"p":"upper","w":"ab"}): upper\n');
    expect(section('literal')).toContain('        │ echo ab | tr a-z A-Z');
    expect(section('literal')).toContain('  child plan of item 2 ({"p":"lower","w":"CD"}): lower\n');
    expect(section('literal')).toContain('        │ echo CD | tr A-Z a-z');
    expect(section('chosen')).toContain('  child plan of each item: {{ item }}, chosen at run time (its name is a template)');
    expect(section('fixed')).toContain('  child plan of each item: writer\n    Pipeline writer');
    const route = section('route');
    expect(route).toContain('  child plan of case high: upper\n');
    expect(route).toContain('  child plan of case low: lower\n');
    expect(route).toContain('  child plan of the default: writer\n');
    expect(route).not.toContain('child plan of case none');
  });

  it('stops at a cycle and at the depth limit, saying why', async () => {
    const looping = `kind: WavePipeline
metadata: { name: looping }
steps:
  - id: again
    iterate: { over: '["looping"]' }
    pipeline: "{{ item }}"
`;
    const project = makeProject({ 'pipelines/looping.yaml': looping, ...chain() });
    const cycle = await runWave(['run', 'looping', '--dry-run'], { cwd: project });
    expect(cycle.code, cycle.stderr).toBe(0);
    expect(cycle.stdout).toContain('  child plan of item 1 ("looping"): looping, not shown again: it is one of the pipelines that start it (a cycle)');

    const deep = await runWave(['run', 'p0', '--dry-run'], { cwd: project });
    expect(deep.code, deep.stderr).toBe(0);
    const indent = ' '.repeat(4 * MAX_CHILD_DEPTH);
    expect(deep.stdout).toContain(`${indent}Pipeline p${MAX_CHILD_DEPTH} (`);
    expect(deep.stdout).toContain(`${indent}  child plan: p${MAX_CHILD_DEPTH + 1}, not shown: it would run past the limit of ${MAX_CHILD_DEPTH} nested runs`);
  });
});
