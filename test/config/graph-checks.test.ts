import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestView, readManifest, readPipeline } from '../../src/config/load/load.js';
import { parseCondition } from '../../src/config/schema/graph-schema.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';

/** The problems of a pipeline file as `wave validate` finds them: code, line, column, message. */
async function problems(pipeline: string) {
  const dir = makeProject({ 'pipelines/g.yaml': pipeline });
  const manifest = await readManifest(join(dir, 'wave.yaml'), {});
  const read = await readPipeline(join(dir, 'pipelines', 'g.yaml'), manifestView(manifest), {});
  return read.errors.map((e) => [e.code, e.location?.line, e.location?.column, e.message, e.hint]);
}

describe('graph routing as written', () => {
  it('parses the conditions Wave reads, and says why one is malformed', () => {
    expect(parseCondition(undefined)).toEqual({ on: 'always' });
    expect(parseCondition(' outcome = failure ')).toEqual({ on: 'outcome', value: 'failure' });
    expect(parseCondition('context.tests=green')).toEqual({ on: 'context', key: 'tests', value: 'green' });
    expect(parseCondition('outcome')).toBe('`outcome` has no `=`');
    expect(parseCondition('outcome=maybe')).toBe('`outcome=maybe`: an outcome is `success` or `failure`');
    expect(parseCondition('status=ok')).toBe('`status=ok` reads `status`, which is neither `outcome` nor `context.<key>`');
  });

  it('loads Wave’s graph steps: edges, a conditional step, type: pipeline beside a pipeline, the visit limits', async () => {
    expect(
      await problems(`kind: WavePipeline
metadata: { name: g }
max_step_visits: 20
steps:
  - id: child
    type: pipeline
    pipeline: other
    edges: [{ target: check }]
  - id: check
    type: conditional
    dependencies: [child]
    max_visits: 3
    edges:
      - { target: _complete, condition: "outcome=success" }
      - { target: child }
`).then((list) => list.filter(([code]) => code !== 'file_not_found')),
    ).toEqual([]);
  });

  it('refuses an edge to no step, an unreadable condition, a conditional step without edges or with work, and type: pipeline without one', async () => {
    const found = await problems(`kind: WavePipeline
metadata: { name: g }
steps:
  - id: a
    exec: { type: command, source: "true" }
    edges:
      - { target: nowhere }
      - { target: b, condition: "outcome=maybe" }
  - id: b
    type: conditional
    exec: { type: command, source: "true" }
  - id: c
    type: pipeline
  - id: d
    type: pipeline
    exec: { type: command, source: "true" }
`);
    expect(found).toEqual([
      [
        'unknown_dependency',
        7,
        19,
        'step `a` has an edge to `nowhere`, which is not a step of this pipeline',
        'Steps of this pipeline (and `_complete`): `a`, `b`, `c`, `d`, `_complete`.',
      ],
      [
        'wrong_type',
        8,
        33,
        'step `a`: the condition of its edge to `b` cannot be read: `outcome=maybe`: an outcome is `success` or `failure`',
        'Write `outcome=success`, `outcome=failure` or `context.<key>=<value>`, or leave it out to take the edge always.',
      ],
      [
        'missing_field',
        10,
        5,
        'step `b` is `type: conditional` but has no `edges` to route by',
        'Add `edges: [{ target: <step>, condition: outcome=success }, { target: <step> }]`.',
      ],
      [
        'conflicting_fields',
        11,
        5,
        'step `b` is `type: conditional`, so its `exec` would do nothing',
        'Remove `exec`: a conditional step only routes; put the work in a step before it.',
      ],
      [
        'missing_field',
        12,
        5,
        'step `c` has neither `exec` (a prompt or command) nor `pipeline` (a child pipeline)',
        'Add `exec: { source: … }` with the prompt or command, or `pipeline: <name>` to run a child pipeline as the step.',
      ],
      ['missing_field', 15, 5, 'step `d` is `type: pipeline` but has no `pipeline`', 'Add `pipeline: <name>` with the child pipeline the step runs.'],
    ]);
  });

  it('is refused by `wave compile`, naming the routing step', async () => {
    const dir = makeProject({
      'pipelines/g.yaml': `kind: WavePipeline
metadata: { name: g }
steps:
  - id: a
    exec: { type: command, source: "true" }
    edges: [{ target: _complete }]
`,
    });
    const result = await runWave(['compile', 'g'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not_supported: step `a` routes the run by edges (graph mode), which `wave compile` does not turn into jobs yet');
  });
});
