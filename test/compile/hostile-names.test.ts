import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { expressionsByGithub, parsedByGithub } from './compiled.js';
import { simulateWorkflow } from './simulate.js';
import { HOSTILE_WORKFLOW_FILES } from '../support/hostile-names.mjs';

const PIPELINE = commandPipeline('hostile', [['only', [], 'echo ran']]);

/** The expressions a compile of a plainly named pipeline holds: the compiler's own. */
async function ownExpressions(): Promise<Set<string>> {
  const dir = makeProject({ 'pipelines/plain.yaml': PIPELINE });
  const out = await runWave(['compile', 'pipelines/plain.yaml'], { cwd: dir });
  expect(out.code).toBe(0);
  return new Set(await expressionsByGithub(out.stdout));
}

describe('wave compile of hostile pipeline file names', () => {
  it.each(HOSTILE_WORKFLOW_FILES)('%j compiles to a workflow GitHub parses and in which it evaluates nothing of the name', async (name) => {
    const own = await ownExpressions();
    const dir = makeProject({ [`pipelines/${name}`]: PIPELINE });
    const out = await runWave(['compile', `pipelines/${name}`], { cwd: dir });
    expect([out.code, out.stderr]).toEqual([0, '']);
    expect((await parsedByGithub(out.stdout)).errors).toEqual([]);
    // GitHub's documented literal `${{`, the only expression the name may add.
    const added = (await expressionsByGithub(out.stdout)).filter((e) => !own.has(e));
    expect(added.every((e) => e === "'${{'")).toBe(true);
    expect(added.length > 0).toBe(name.includes('${{'));
    expect(out.stdout.split('\n')[0]).toMatch(/^# The Wave pipeline pipelines\/.* as a GitHub Actions workflow/);
  });

  it('a simulated GitHub run of the workflow runs the pipeline by its file name, and runs nothing the name holds', async () => {
    const name = HOSTILE_WORKFLOW_FILES[1]!;
    const dir = makeProject({ [`pipelines/${name}`]: PIPELINE });
    const out = await runWave(['compile', `pipelines/${name}`], { cwd: dir });
    expect(out.code).toBe(0);
    const run = await simulateWorkflow(`${out.stdout}\n`, dir, '');
    expect(Object.fromEntries(run.results)).toEqual({ only: 'success', 'run-record': 'success' });
    for (const folder of [dir, ...run.folders.values()]) expect(readdirSync(folder)).not.toContain('pwned');
  });
});

describe('wave compile refuses `${{` where GitHub allows no expression', () => {
  it.each([
    ['metadata.name', 'kind: WavePipeline\nmetadata:\n  name: "deploy ${{ github.actor }}"\n', 3, 9, '`metadata.name`'],
    ['the input default', 'kind: WavePipeline\nmetadata: { name: p }\ninput:\n  default: "${{ github.event.issue.body }}"\n', 4, 12, 'the input default'],
  ])('in %s, at its line, with a hint', async (_, head, line, column, what) => {
    const text = `${head}steps:\n  - id: only\n    exec: { type: command, source: "true" }\n`;
    const dir = makeProject({ 'pipelines/p.yaml': text });
    const out = await runWave(['compile', 'pipelines/p.yaml', '-o', 'wave.yml'], { cwd: dir });
    expect([out.code, out.stdout]).toEqual([2, '']);
    expect(out.stderr).toContain(`${join(dir, 'pipelines/p.yaml')}:${line}:${column}: wrong_type: ${what} contains \`\${{\``);
    expect(out.stderr).toContain(`hint: Break up the expression opener in ${what} (a space between the dollar sign and the braces, as in $ {{), then compile again.`);
    expect(existsSync(join(dir, 'wave.yml'))).toBe(false);
  });
});
