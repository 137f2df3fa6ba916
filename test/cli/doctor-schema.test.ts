import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';

const line = (target: string) => `# yaml-language-server: $schema=${target}\n`;
const PIPELINE = 'kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - id: a\n    exec: { type: command, source: "true" }\n';

describe('wave doctor: a $schema line naming a file that does not exist', () => {
  it('warns for each such file with the command that makes it exist, and still passes', async () => {
    const project = makeProject({
      'wave.yaml': line('./.wave-schemas/manifest.schema.json') + SHELL_MANIFEST,
      'pipelines/installed.yaml': line('../node_modules/wave-pipelines/schemas/pipeline.schema.json') + PIPELINE,
      'pipelines/own.yaml': line('../my schemas/pipeline.json') + PIPELINE,
      'pipelines/remote.yaml': line('https://example.invalid/pipeline.schema.json') + PIPELINE,
      'pipelines/plain.yaml': PIPELINE,
    });
    const text = await runWave(['doctor'], { cwd: project });
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toContain(
      "warn schema wave.yaml: $schema=./.wave-schemas/manifest.schema.json does not exist\n  hint: Run `wave validate`, which writes this Wave's schemas there.\n",
    );
    expect(text.stdout).toContain(
      'warn schema pipelines/installed.yaml: $schema=../node_modules/wave-pipelines/schemas/pipeline.schema.json does not exist\n  hint: Run `npm install`, which installs wave-pipelines and its schemas.\n',
    );
    expect(text.stdout).toContain("hint: Run `wave schema pipeline > 'my schemas/pipeline.json'` to write the schema there, or point the line at one that exists.");
    // A URL is the editor's to fetch, and a file without the line names nothing.
    expect(text.stdout).not.toMatch(/remote\.yaml|plain\.yaml/);

    const json = await runWave(['doctor', '--json'], { cwd: project });
    const { schemas } = JSON.parse(json.stdout) as { schemas: Array<{ file: string; ref: string }> };
    expect(schemas.map((s) => s.ref).sort()).toEqual([
      '../my schemas/pipeline.json',
      '../node_modules/wave-pipelines/schemas/pipeline.schema.json',
      './.wave-schemas/manifest.schema.json',
    ]);

    // wave validate writes Wave's copies, after which doctor has nothing to say about them.
    expect((await runWave(['validate'], { cwd: project })).code).toBe(0);
    expect((await runWave(['doctor'], { cwd: project })).stdout).not.toContain('warn schema wave.yaml');
  });
});
