import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

describe('a required artifact the step did not write', () => {
  it('says what to change in the step, not the path of the workspace it looked in', async () => {
    const project = makeProject({
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - id: report
    exec: { type: command, source: "echo done" }
    output_artifacts: [{ name: summary, path: out/summary.json }]
`,
    });
    const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(run.code).toBe(1);
    const failure = latestRun(project).steps.report!.failure!;
    expect(failure.class).toBe('artifact_missing');
    expect(failure.message).toMatch(/^artifact `summary` was not produced: looked at \/.*\/out\/summary\.json$/);
    expect(failure.hint).toBe(
      "Have its command write `out/summary.json` in its workspace, or change the artifact's path in step `report`'s output_artifacts, or mark it `required: false`.",
    );
    expect(failure.hint).not.toContain(project);
  });
});
