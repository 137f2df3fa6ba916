import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun, runDirs } from '../support/runs.js';

// A child pipeline that declares no pipeline_outputs gives its parent step its last step's output, as the docs say.

const CHILD = `kind: WavePipeline
metadata: { name: child }
steps:
  - id: first
    exec: { type: command, source: "echo first" }
  - id: last
    dependencies: [first]
    exec: { type: command, source: "printf 'done %s' {{ input }}" }
`;

const PARENT = `kind: WavePipeline
metadata: { name: parent }
steps:
  - id: one
    pipeline: child
    input: solo
  - id: each
    pipeline: child
    iterate: { over: '["a", "b"]' }
    input: "{{ item }}"
  - id: report
    dependencies: [one, each]
    exec: { type: command, source: "printf '%s|%s' {{ steps.one.output }} {{ steps.each.output }}" }
`;

describe("a child's output without pipeline_outputs", () => {
  it("is its last step's output, for a child pipeline step and for each iterate item", async () => {
    const project = makeProject({ 'pipelines/child.yaml': CHILD, 'pipelines/parent.yaml': PARENT });
    const run = await runWave(['run', 'parent'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const parent = runDirs(project).find((dir) => dir.split('/').pop()!.startsWith('parent'))!;
    expect(readFileSync(join(parent, 'steps', 'report', 'attempt-1', 'stdout'), 'utf8')).toBe('done solo|["done a","done b"]');
    expect(latestRun(project).pipeline).toBeDefined();
  });
});
