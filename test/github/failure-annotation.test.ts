import { describe, expect, it } from 'vitest';
import { commandPipeline, makeProject } from '../support/project.js';
import { lineOf, runAction } from './run-action.js';

describe('the GitHub Action’s annotation of a failed step', () => {
  it('is the one annotation of the failure, at the step’s line, saying each line once', async () => {
    const pipeline = commandPipeline('broken', [
      ['fine', [], 'echo fine'],
      ['breaks', ['fine'], 'echo err-line >&2; exit 4'],
    ]);
    const project = makeProject({ 'pipelines/broken.yaml': pipeline });
    const run = await runAction(project, { pipeline: 'broken' });
    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    const annotations = run.stdout.match(/^::(error|warning|notice)[ :][^\n]*$/gm) ?? [];
    expect(annotations).toHaveLength(1);
    const head = `::error title=Step breaks failed,file=pipelines/broken.yaml,line=${lineOf(pipeline, 'id: breaks')},col=5::`;
    expect(annotations[0]!.startsWith(head), annotations[0]).toBe(true);
    expect(annotations[0]!.slice(head.length).split('%0A')).toEqual(['non_zero_exit: command "echo err-line >&2; exit 4" exited with code 4:', 'err-line']);
    // The job step still fails, saying so in a plain line, not a second annotation.
    expect(run.stdout).toMatch(/^Wave: the run failed\.$/m);
  });

  it('is the problem’s annotation alone for a run that could not start', async () => {
    const project = makeProject({ 'pipelines/fine.yaml': commandPipeline('fine', [['fine', [], 'echo fine']]) });
    const run = await runAction(project, { pipeline: 'fine', steps: 'nope' });
    const errors = run.stdout.match(/^::error[^\n]*$/gm) ?? [];
    // The selection error is the one annotation; the job's failure is a plain line.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^::error title=Wave%3A /);
    expect(run.stdout).toMatch(/^Wave: the run failed\.$/m);
  });
});
