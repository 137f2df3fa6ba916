import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validate } from '../../src/api/index.js';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';

const BROKEN =
  'kind: WavePipeline\nmetadata: { name: broken }\nsteps:\n  - id: a\n    exec: { type: command }\n  - { id: b, dependencies: [nowhere], exec: { type: command, source: "true" } }\n';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('validate', () => {
  it('returns the problems `wave validate --json` prints for a project folder, as data, printing nothing', async () => {
    const project = makeProject({ 'pipelines/good.yaml': commandPipeline('good', [['a', [], 'true']]), 'pipelines/broken.yaml': BROKEN });
    const out = vi.spyOn(process.stdout, 'write');
    const report = await validate(project);
    expect(out).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    // The same check by the CLI from this folder, pointed at the project by its manifest.
    const cli = await runWave(['validate', '--json', '--manifest', join(project, 'wave.yaml')]);
    expect(report.problems).toEqual(JSON.parse(cli.stdout));
    expect(report.valid).toBe(false);
    expect(report.files.map((file) => [file.file, file.problems.length > 0])).toEqual([
      [join(project, 'wave.yaml'), false],
      [join(project, 'pipelines', 'broken.yaml'), true],
      [join(project, 'pipelines', 'good.yaml'), false],
    ]);
    expect(report.problems[0]).toMatchObject({
      severity: 'error',
      code: 'missing_field',
      file: join(project, 'pipelines', 'broken.yaml'),
      line: 5,
      column: expect.any(Number),
      hint: expect.any(String),
    });
  });

  it('checks only the pipeline files it is given, with the manifest found above them', async () => {
    const project = makeProject({ 'pipelines/good.yaml': commandPipeline('good', [['a', [], 'true']]), 'pipelines/broken.yaml': BROKEN });
    const report = await validate([join(project, 'pipelines', 'good.yaml')]);
    expect(report).toEqual({
      valid: true,
      files: [expect.objectContaining({ file: join(project, 'wave.yaml') }), expect.objectContaining({ file: join(project, 'pipelines', 'good.yaml') })],
      problems: [],
    });
  });
});
