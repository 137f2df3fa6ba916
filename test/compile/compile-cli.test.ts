import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject, SHELL_MANIFEST } from '../support/project.js';
import { parsedByGithub } from './compiled.js';

const PIPELINE = commandPipeline('two', [
  ['first', [], 'echo first'],
  ['second', ['first'], 'echo second'],
]);

describe('wave compile through the CLI', () => {
  it('prints the workflow: one job per step and the run record job, that GitHub parses', async () => {
    const dir = makeProject({ 'pipelines/two.yaml': PIPELINE });
    const out = await runWave(['compile', 'pipelines/two.yaml'], { cwd: dir });
    expect([out.code, out.stderr]).toEqual([0, '']);
    expect(out.stdout.startsWith('# The Wave pipeline pipelines/two.yaml as a GitHub Actions workflow')).toBe(true);
    const jobs = (parse(out.stdout) as { jobs: Record<string, { needs?: string[] }> }).jobs;
    expect(Object.keys(jobs)).toEqual(['first', 'second', 'run-record']);
    expect(jobs.second!.needs).toEqual(['first']);
    expect((await parsedByGithub(out.stdout)).errors).toEqual([]);
  });

  it('-o writes the file, compiles again over its own file, and refuses a foreign file unless --force', async () => {
    const dir = makeProject({ 'pipelines/two.yaml': PIPELINE });
    // runWave's stdout has its final newline stripped.
    const printed = `${(await runWave(['compile', 'pipelines/two.yaml'], { cwd: dir })).stdout}\n`;
    const file = join(dir, 'wave.yml');

    const first = await runWave(['compile', 'pipelines/two.yaml', '-o', 'wave.yml'], { cwd: dir });
    expect([first.code, first.stdout]).toEqual([0, '']);
    expect(first.stderr).toContain('wrote wave.yml: 3 jobs (first, second, run-record)');
    expect(readFileSync(file, 'utf8')).toBe(printed);
    writeFileSync(file, `${printed}# an edit the next compile replaces\n`);
    const again = await runWave(['compile', 'pipelines/two.yaml', '-o', 'wave.yml'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(printed);

    const foreign = join(dir, 'ci.yml');
    writeFileSync(foreign, 'name: ci\non: push\n');
    const refused = await runWave(['compile', 'pipelines/two.yaml', '-o', 'ci.yml'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${foreign}: file_exists: ${foreign} exists and was not written by \`wave compile\``);
    expect(refused.stderr).toContain('hint: Choose another -o file, or pass --force to overwrite it.');
    expect(readFileSync(foreign, 'utf8')).toBe('name: ci\non: push\n');
    const forced = await runWave(['compile', 'pipelines/two.yaml', '-o', 'ci.yml', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(readFileSync(foreign, 'utf8')).toBe(printed);
  });

  it('refuses an env_passthrough name GitHub cannot use as a secret, at its line in the manifest', async () => {
    const manifest = `${SHELL_MANIFEST}  sandbox:\n    env_passthrough:\n      - API_KEY\n      - GITHUB_TOKEN\n`;
    const dir = makeProject({ 'wave.yaml': manifest, 'pipelines/two.yaml': PIPELINE });
    const line = manifest.split('\n').indexOf('      - GITHUB_TOKEN') + 1;
    const out = await runWave(['compile', 'pipelines/two.yaml', '-o', 'wave.yml'], { cwd: dir });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${join(dir, 'wave.yaml')}:${line}:9: wrong_type: env_passthrough \`GITHUB_TOKEN\` cannot be a GitHub secret's name`);
    expect(out.stderr).toContain('hint: GitHub secrets are named');
    expect(existsSync(join(dir, 'wave.yml'))).toBe(false);
  });

  it.each([
    ['a target it cannot write', ['--target', 'gitlab-ci'], "argument 'gitlab-ci' is invalid. Allowed choices are github-actions."],
    ['an event it cannot start on', ['--on', 'push,schedule'], "argument 'push,schedule' is invalid. Allowed events are pull_request, push, workflow_dispatch, workflow_call"],
  ])('refuses %s, naming the allowed ones, and writes nothing', async (_, flags, message) => {
    const dir = makeProject({ 'pipelines/two.yaml': PIPELINE });
    const out = await runWave(['compile', 'pipelines/two.yaml', ...flags, '-o', 'wave.yml'], { cwd: dir });
    expect([out.code, out.stdout]).toEqual([2, '']);
    expect(out.stderr).toContain(message);
    expect(existsSync(join(dir, 'wave.yml'))).toBe(false);
  });
});
