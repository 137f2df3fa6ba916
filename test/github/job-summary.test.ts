import { describe, expect, it } from 'vitest';
import { commandPipeline, makeProject } from '../support/project.js';
import { runAction } from './run-action.js';

const BAD = 'kind: WavePipeline\nmetadata: { name: bad }\nsteps:\n  - id: a\n    dependencies: [nope]\n    exec: { type: command, source: "true" }\n';

describe('the GitHub Action’s job summary', () => {
  it('says what was wrong, where and what to do when the configuration stops the run', async () => {
    const project = makeProject({ 'pipelines/bad.yaml': BAD });
    const run = await runAction(project, { pipeline: 'bad' });
    expect(run.code).toBe(1);
    expect(run.summary).toMatch(/^## Wave: the run did not start \(a problem in its inputs or files\)$/m);
    expect(run.summary).toMatch(/^### `unknown_dependency` at `pipelines\/bad\.yaml:5:\d+`$/m);
    expect(run.summary).toMatch(/^~~~\n.*`nope`.*\n~~~$/m);
    expect(run.summary).toMatch(/^\*\*Hint:\*\* \S/m);
    // Paths are from the repository root: the runner's own folders mean nothing to a reader.
    expect(run.summary).not.toContain(project);
  });

  it('keeps a wrong input’s value inside its fenced block, however many tildes it holds', async () => {
    const project = makeProject({ 'pipelines/fine.yaml': commandPipeline('fine', [['fine', [], 'echo fine']]) });
    const run = await runAction(project, { pipeline: 'fine', 'on-failure': '~~~~\n# forged heading' });
    expect(run.summary).toMatch(/^### `invalid_argument`$/m);
    expect(run.summary).toMatch(/^~{5}\ninput `on-failure` is `~~~~\n# forged heading`, which is not valid\n~{5}$/m);
  });

  it('tells how to run a failed run again on GitHub, not `wave resume` on the runner’s folder', async () => {
    const project = makeProject({ 'pipelines/broken.yaml': commandPipeline('broken', [['breaks', [], 'exit 4']]) });
    const run = await runAction(project, { pipeline: 'broken' });
    const id = run.outputs['run-id']!;
    expect(run.summary).toContain('### Running it again');
    expect(run.summary).toContain('**Re-run jobs › Re-run failed jobs**. The pipeline runs again from its first step, as a new run');
    expect(run.summary).toContain(`\`wave resume ${id}\` does not apply here`);
    expect(run.summary).toContain('upload the `run-dir` output with actions/upload-artifact (the Action uploads nothing itself)');
    expect(run.summary).toContain(`\`.wave/runs/${id}/\``);
    expect(run.summary).not.toContain('Resume with');
    expect(run.summary).not.toContain(project);
  });

  it('has no word of running again when the run completed', async () => {
    const project = makeProject({ 'pipelines/fine.yaml': commandPipeline('fine', [['fine', [], 'echo fine']]) });
    const run = await runAction(project, { pipeline: 'fine' });
    expect(run.code).toBe(0);
    expect(run.summary).toContain(`- Run id: \`${run.outputs['run-id']}\` (the \`run-id\` output; its folder is the \`run-dir\` output)`);
    expect(run.summary).not.toContain('Running it again');
  });
});
