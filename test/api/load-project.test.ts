import { describe, expect, it } from 'vitest';
import { loadProject, WaveError, WaveProblems } from '../../src/api/index.js';
import { commandPipeline, makeProject } from '../support/project.js';

describe('loadProject', () => {
  it('loads the manifest and every pipeline of the project, typed as the files say', async () => {
    const project = makeProject({ 'pipelines/one.yaml': commandPipeline('one', [['a', [], 'true']]), 'pipelines/two.yaml': commandPipeline('two', [['b', [], 'true']]) });
    const loaded = await loadProject(project);
    expect(loaded.dir).toBe(project);
    expect(loaded.manifest.personas?.shell?.adapter).toBe('shell');
    expect(loaded.pipelines.map((entry) => [entry.name, entry.pipeline.steps.map((step) => step.id)])).toEqual([
      ['one', ['a']],
      ['two', ['b']],
    ]);
  });

  it('throws one WaveProblems holding every located problem of a bad file', async () => {
    const bad = 'kind: WavePipeline\nmetadata: { name: bad }\nsteps:\n  - id: a\n    exec: { type: command }\n  - id: a\n    exec: { type: command, source: "true" }\n';
    const project = makeProject({ 'pipelines/bad.yaml': bad });
    const error = await loadProject(project).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(WaveProblems);
    expect(error).toBeInstanceOf(WaveError);
    const problems = (error as WaveProblems).problems;
    expect(problems.length).toBeGreaterThan(1);
    expect(problems.every((problem) => problem.location?.line !== undefined)).toBe(true);
    expect(error).toMatchObject({ code: problems[0]?.code, location: problems[0]?.location });
  });
});
