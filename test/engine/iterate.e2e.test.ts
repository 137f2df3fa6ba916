import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';

// Wave's `iterate`: a child pipeline per item, run by `wave run` with command steps.

/** A child that writes its input, changed by `tr`, as its one pipeline output; it fails when its input is BAD. */
const child = (name: string, tr: string) => `kind: WavePipeline
metadata: { name: ${name} }
steps:
  - id: work
    exec: { type: command, source: "printf '%s' {{ input }} | tr ${tr} > out.txt; sleep 0.5; test {{ input }} != BAD-2" }
    output_artifacts: [{ name: out, path: out.txt }]
pipeline_outputs:
  out: { step: work, artifact: out }
`;

const ITEMS = '[{"p":"upper","w":"ab"},{"p":"lower","w":"CD"},{"p":"upper","w":"ef"},{"p":"lower","w":"GH"},{"p":"upper","w":"ij"}]';

const fan = (name: string, over: string, iterate: string) => `kind: WavePipeline
metadata: { name: ${name} }
steps:
  - id: each
    iterate: { over: '${over}', ${iterate} }
    pipeline: "{{ item.p }}"
    input: "{{ item.w }}-{{ iteration }}"
  - id: show
    dependencies: [each]
    exec: { type: command, source: "echo {{ steps.each.output }}" }
`;

function project(): string {
  return makeProject({
    'pipelines/upper.yaml': child('upper', 'a-z A-Z'),
    'pipelines/lower.yaml': child('lower', 'A-Z a-z'),
    'pipelines/parallel.yaml': fan('parallel', ITEMS, 'mode: parallel, max_concurrent: 2'),
    'pipelines/tolerant.yaml': fan('tolerant', ITEMS.replace('"w":"ef"', '"w":"BAD"'), 'on_failure: continue'),
    'pipelines/strict.yaml': fan('strict', ITEMS.replace('"w":"ef"', '"w":"BAD"'), 'mode: parallel'),
    'pipelines/missing.yaml': fan('missing', '[{"p":"upper","w":"a"},{"p":"nowhere","w":"b"}]', 'mode: parallel'),
    'pipelines/scalar.yaml': fan('scalar', '{"not":"a list"}', 'mode: sequential'),
    'pipelines/merged.yaml': `kind: WavePipeline
metadata: { name: merged }
steps:
  - id: each
    iterate: { over: '[["a","b"],["c"]]', mode: parallel }
    pipeline: lists
    input: "{{ item }}"
  - id: merge
    dependencies: [each]
    aggregate: { from: "{{ each.out.collected-output }}", into: .agents/output/merged-findings.json, strategy: merge_arrays }
  - id: report
    dependencies: [merge]
    memory:
      inject_artifacts: [{ step: merge, artifact: merged-findings, as: all }]
    exec: { type: command, source: "cat {{ artifacts.all }}" }
`,
    // A child whose output is its input, a JSON list.
    'pipelines/lists.yaml': `kind: WavePipeline
metadata: { name: lists }
steps:
  - id: echo
    exec: { type: command, source: "printf '%s' {{ input }} > list.json" }
    output_artifacts: [{ name: list, path: list.json }]
pipeline_outputs:
  list: { step: echo, artifact: list }
`,
  });
}

/** What the step after the iterate step printed: the collection it was given. */
function showed(dir: string, parent: RunRecord): string {
  return readFileSync(join(dir, '.wave', 'runs', parent.id, 'steps', 'show', 'attempt-1', 'stdout'), 'utf8');
}

function records(dir: string): RunRecord[] {
  return runDirs(dir).map((run) => JSON.parse(readFileSync(join(run, 'run.json'), 'utf8')) as RunRecord);
}

describe('an iterate step', () => {
  const dir = project();

  it('runs each item its own child, at most max_concurrent at once, and collects their outputs in item order', async () => {
    const run = await runWave(['run', 'parallel', '--output', 'text'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const all = records(dir);
    const parent = all.find((r) => r.pipeline === 'parallel')!;
    const children = parent.steps.each!.children!;
    // Listed as they started; by item, each ran the child its item named.
    expect(children.map((c) => [c.item, c.pipeline, c.status]).sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual([
      [0, 'upper', 'completed'],
      [1, 'lower', 'completed'],
      [2, 'upper', 'completed'],
      [3, 'lower', 'completed'],
      [4, 'upper', 'completed'],
    ]);
    const collected = '["AB-0","cd-1","EF-2","gh-3","IJ-4"]';
    expect(readFileSync(join(dir, '.wave', 'runs', parent.id, 'artifacts', 'each', 'collected-output.json'), 'utf8')).toBe(collected);
    expect(showed(dir, parent)).toBe(`${collected}\n`);
    // Each child is a run linked to the item it ran for; never more than two ran at once.
    const runs = children.map((c) => all.find((r) => r.id === c.runId)!);
    expect(runs.map((r) => [r.parentId, r.childKind])).toEqual(runs.map(() => [parent.id, 'iterate_item']));
    const spans = runs.map((r) => [Date.parse(r.startedAt), Date.parse(r.finishedAt!)] as const);
    const most = Math.max(...spans.map(([start]) => spans.filter(([s, end]) => s <= start && start < end).length));
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBe(2);
  });

  it('with on_failure: continue, records a failed item as null and goes on; with fail, the first failure fails the step', async () => {
    const tolerant = await runWave(['run', 'tolerant', '--output', 'text'], { cwd: dir });
    expect(tolerant.code, tolerant.stdout + tolerant.stderr).toBe(0);
    const parent = records(dir).find((r) => r.pipeline === 'tolerant')!;
    expect(parent.steps.each!.status).toBe('completed');
    expect(showed(dir, parent)).toBe('["AB-0","cd-1",null,"gh-3","IJ-4"]\n');
    expect(parent.steps.each!.children!.find((c) => c.item === 2)).toMatchObject({ status: 'failed' });

    const strict = await runWave(['run', 'strict', '--output', 'text'], { cwd: dir });
    expect(strict.code).toBe(1);
    const failed = records(dir).find((r) => r.pipeline === 'strict')!;
    expect(failed.steps.each!.failure!.message).toMatch(/^iterate item 3 of 5: step work of child run upper-\S+: /);
    expect(failed.steps.show!.status).not.toBe('completed');
  }, 60_000);

  it("feeds an aggregate: the children's lists merged into one artifact in the run's store, which a later step injects", async () => {
    const run = await runWave(['run', 'merged', '--output', 'text'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const parent = records(dir).find((r) => r.pipeline === 'merged')!;
    expect(parent.steps.merge!.artifacts).toEqual([expect.objectContaining({ name: 'merged-findings', path: 'artifacts/merge/merged-findings.json' })]);
    expect(readFileSync(join(dir, '.wave', 'runs', parent.id, 'steps', 'report', 'attempt-1', 'stdout'), 'utf8')).toBe('["a","b","c"]');
    // Nothing was written into the project.
    expect(existsSync(join(dir, '.agents'))).toBe(false);
  });

  it("checks a templated child's names against a literal list before anything runs, and fails an `over` that is no list", async () => {
    const missing = await runWave(['run', 'missing'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stdout + missing.stderr).toContain('runs the child pipeline `nowhere`');
    const scalar = await runWave(['run', 'scalar', '--output', 'text'], { cwd: dir });
    expect(scalar.code).toBe(1);
    expect(scalar.stdout + scalar.stderr).toContain('iterate.over did not resolve to a JSON array');
  });
});
