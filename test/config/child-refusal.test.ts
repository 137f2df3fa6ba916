import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';

// A pipeline whose child (or grandchild) uses a feature this version refuses cannot run to its end: refused before anything runs.

const parent = (child: string) =>
  `kind: WavePipeline\nmetadata: { name: parent }\nsteps:\n  - id: first\n    exec: { type: command, source: "true" }\n  - id: sub\n    dependencies: [first]\n    pipeline: ${child}\n`;

describe("a child pipeline's refused features", () => {
  it('refuse the parent at `wave validate` and before `wave run` runs any step, naming each feature and the child', async () => {
    const project = makeProject({
      'pipelines/parent.yaml': parent('middle'),
      'pipelines/middle.yaml': parent('looped').replace('name: parent', 'name: middle'),
      'pipelines/looped.yaml': `kind: WavePipeline\nmetadata: { name: looped }\nsteps:\n  - id: again\n    validation: [{ type: json_schema }]\n    exec: { type: command, source: "true" }\n`,
      'pipelines/plain.yaml': parent('fine'),
      'pipelines/fine.yaml': `kind: WavePipeline\nmetadata: { name: fine }\nsteps:\n  - id: ok\n    exec: { type: command, source: "true" }\n`,
    });
    const checked = await runWave(['validate', 'pipelines/parent.yaml', 'pipelines/plain.yaml'], { cwd: project });
    expect(checked.code).toBe(2);
    const text = checked.stdout + checked.stderr;
    expect(text).toContain(
      'parent.yaml:8:15: not_supported: step `sub` runs the child pipeline `middle`, which uses what this version does not run yet: `validation` (validation rules)',
    );
    expect(text).toContain('✓ pipelines/plain.yaml');
    const run = await runWave(['run', 'parent'], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('step `sub` runs the child pipeline `middle`');
    expect((await runWave(['runs', '--json'], { cwd: project })).stdout.trim()).toBe('[]');
  });
});
