import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../src/config/load/load.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';

const manifestWith = (project: string) => `kind: WaveManifest
metadata: { name: t }
project:
  language: go
${project}
adapters:
  shell: { type: process, binary: sh, args: ["-c", "{{prompt}}"] }
personas:
  shell: { adapter: shell }
`;

describe('project.test_file_pattern, a list as in Wave', () => {
  it("accepts a list of pathspecs (Wave's own wave.yaml)", async () => {
    const dir = makeProject({ 'wave.yaml': manifestWith('  test_file_pattern:\n    - "*_test.go"\n    - "**/*.spec.ts"') });
    expect((await readManifest(join(dir, 'wave.yaml'), {})).errors).toEqual([]);
  });

  it('refuses a single string at its line, as Wave (a []string) does', async () => {
    const dir = makeProject({ 'wave.yaml': manifestWith('  test_file_pattern: "*_test.go"') });
    const errors = (await readManifest(join(dir, 'wave.yaml'), {})).errors;
    expect(errors.map((e) => [e.code, e.location?.line])).toEqual([['wrong_type', 5]]);
    expect(errors[0]!.message).toContain('test_file_pattern');
  });

  it('is no template value, as in Wave (ProjectVars leaves it out), while the scalar facts are', async () => {
    const files = (template: string) => ({
      'wave.yaml': manifestWith('  test_file_pattern: ["*_test.go"]'),
      'pipelines/p.yaml': `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - id: s\n    exec: { type: command, source: "echo ${template}" }\n`,
    });
    const known = await runWave(['validate', 'p'], { cwd: makeProject(files('{{ project.language }}')) });
    expect(known.code, known.stderr).toBe(0);
    const listed = await runWave(['validate', '--json', 'p'], { cwd: makeProject(files('{{ project.test_file_pattern }}')) });
    expect(listed.code).toBe(2);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ code: 'template_invalid', message: expect.stringContaining('project.test_file_pattern') })]);
  });
});
