import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { RunStore } from '../../src/state/run-store.js';

/** The run a person started (its workers are child runs, started after it). */
function parentRun(project: string): RunRecord {
  return runDirs(project)
    .map((dir) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord)
    .find((record) => record.parentId === undefined)!;
}

/** A step's saved collected-output, parsed. */
function collectedOf(project: string, record: RunRecord, stepId: string): unknown {
  const saved = record.steps[stepId]!.artifacts.find((a) => a.name === 'collected-output')!;
  return JSON.parse(readFileSync(join(project, '.wave', 'runs', record.id, saved.path), 'utf8'));
}

const MATRIX = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: plan
    exec: { type: command, source: "mkdir -p out && printf '%s' '{\\"plan\\": {\\"tasks\\": [\\"alpha\\", {\\"n\\": 2}, \\"gamma\\"]}}' > out/tasks.json" }
    output_artifacts:
      - { name: tasks, path: out/tasks.json, type: json }
  - id: execute
    dependencies: [plan]
    strategy:
      type: matrix
      items_source: plan/tasks
      item_key: plan.tasks
      max_concurrency: 2
    exec: { type: command, source: "printf 'did %s in %s' {{ task }} \\"$PWD\\"" }
  - id: after
    dependencies: [execute]
    exec: { type: command, source: "printf '%s' {{ steps.execute.output }}" }
`;

describe('strategy: matrix', () => {
  it("runs the step once per item of an earlier step's JSON artifact, each a child run in its own workspace, outputs collected in item order", async () => {
    const project = makeProject({ 'pipelines/p.yaml': MATRIX });
    const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const record = parentRun(project);
    const children = record.steps.execute!.children!;
    expect(children.map((c) => [c.item, c.status])).toEqual(
      expect.arrayContaining([
        [0, 'completed'],
        [1, 'completed'],
        [2, 'completed'],
      ]),
    );
    const collected = collectedOf(project, record, 'execute') as string[];
    expect(collected.map((text) => text.split(' in ')[0])).toEqual(['did alpha', 'did {"n":2}', 'did gamma']);
    expect(new Set(collected.map((text) => text.split(' in ')[1])).size).toBe(3);
    const dry = await runWave(['run', 'p', '--dry-run'], { cwd: project });
    expect(dry.stdout).toContain('workers:   a child run per item of plan/tasks at plan.tasks ({{ task }}), each in its own workspace, 2 at once');
    const after = readFileSync(join(project, '.wave', 'runs', record.id, 'steps', 'after', 'output.txt'), 'utf8');
    expect(JSON.parse(after)).toEqual(collected);
  });

  it('fails the step with the first failed item, naming it', async () => {
    const pipeline = MATRIX.replace(`"printf 'did %s in %s' {{ task }} \\"$PWD\\""`, `"test {{ task }} != gamma"`);
    const project = makeProject({ 'pipelines/p.yaml': pipeline });
    const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(run.code).toBe(1);
    const record = parentRun(project);
    expect(record.steps.execute!.status).toBe('failed');
    expect(record.steps.execute!.failure!.message).toMatch(/^matrix item 3 of 3: /);
  });

  it("refuses Wave's tiered matrix keys by name", async () => {
    const project = makeProject({ 'pipelines/p.yaml': MATRIX.replace('max_concurrency: 2', 'max_concurrency: 2\n      dependency_key: deps') });
    const run = await runWave(['validate', 'p'], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain('`strategy.dependency_key` (matrix items that depend on each other, or run a child pipeline) is not supported yet');
  });

  it('refuses {{ input }} in a matrix step: a worker gets its item as its input', async () => {
    const project = makeProject({ 'pipelines/p.yaml': MATRIX.replace('{{ task }}', '{{ input }}') });
    const run = await runWave(['run', 'p', '--dry-run'], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("step `execute` is a matrix: each worker's input is its item, `{{ task }}`, so `{{ input }}` would be the item too");
  });
});

describe('concurrency: N', () => {
  it('runs N identical workers in workspaces of their own, at most runtime.max_concurrency at once', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: many
    concurrency: 3
    exec: { type: command, source: "printf '%s' {{ input }} > mine.txt && ls && sleep 0.3 && printf '%s' \\"$PWD\\"" }
`;
    const manifest = readFileSync(join(makeProject({}), 'wave.yaml'), 'utf8').replace('max_concurrency: 4', 'max_concurrency: 2');
    const project = makeProject({ 'wave.yaml': manifest, 'pipelines/p.yaml': pipeline });
    const run = await runWave(['run', 'p', '--input', 'hello', '--output', 'text'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const record = parentRun(project);
    const workspaces = collectedOf(project, record, 'many') as string[];
    expect(new Set(workspaces).size).toBe(3);
    const children = record.steps.many!.children!.map((c) => RunStore.open(join(project, '.wave', 'runs'), c.runId).record);
    expect(children.map((c) => c.input)).toEqual(['hello', 'hello', 'hello']);
    // Two at most at once: the third worker starts after one of the first two has finished.
    const spans = children.map((c) => [Date.parse(c.startedAt), Date.parse(c.finishedAt!)] as const).sort((a, b) => a[0] - b[0]);
    expect(spans[2]![0]).toBeGreaterThanOrEqual(Math.min(spans[0]![1], spans[1]![1]));
    expect(runDirs(project).length).toBe(4);
  });
});
