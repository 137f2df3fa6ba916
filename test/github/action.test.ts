import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { commandPipeline, makeProject, SHELL_MANIFEST } from '../support/project.js';
import { lineOf, runAction, startAction, waitFor } from './run-action.js';

const SECRET = 'wave-planted-secret-7f3a9c';
const PASSTHROUGH_MANIFEST = `${SHELL_MANIFEST}  sandbox: { backend: none, env_passthrough: [WAVE_TEST_TOKEN] }\n`;

/** A project with the repository's manifest, README and hello pipeline, as the workflow checks it out. */
function helloProject(): string {
  const dir = makeProject({});
  for (const path of ['wave.yaml', 'README.md', 'pipelines/hello.yaml', 'personas']) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  return dir;
}

describe('the GitHub Action entry', () => {
  it('runs pipelines/hello.yaml and sets every output, the job summary and one log group per step', async () => {
    const project = helloProject();
    const run = await runAction(project, { pipeline: 'pipelines/hello.yaml' });
    expect(run.code, run.stdout).toBe(0);
    const { outputs } = run;
    expect(outputs.conclusion).toBe('success');
    expect(outputs['run-id']).toMatch(/^hello-/);
    expect(existsSync(join(outputs['run-dir']!, 'run.json'))).toBe(true);
    expect(outputs['run-dir']).toContain(outputs['run-id']);
    for (const name of ['input-tokens', 'output-tokens', 'cache-read-tokens', 'cache-write-tokens']) expect(outputs[name]).toBe('0');
    expect(outputs['cost-usd']).toBe('');
    expect(outputs.outputs).toBe('{}');
    const steps = JSON.parse(outputs.steps!) as { id: string; status: string; durationMs: number; failureClass: string | null }[];
    expect(steps.map((s) => s.id)).toEqual(['split', 'count-0', 'count-1', 'count-2', 'report']);
    for (const step of steps) expect(step).toMatchObject({ status: 'completed', failureClass: null, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });

    expect(run.summary).toContain('| Step | Status | Duration | Tokens | Cost | Failure | Attempts |');
    for (const id of ['split', 'count-0', 'count-1', 'count-2', 'report']) {
      expect(run.summary).toMatch(new RegExp(`^\\| \`${id}\` \\| completed \\| .* \\| 1 \\|$`, 'm'));
      expect(run.summary).toMatch(new RegExp(`^ {4}${id} :done, s\\d, \\d+, \\d+$`, 'm'));
    }
    expect(run.summary).toContain('```mermaid\ngantt\n');
    expect(run.summary).toContain(`Run id: \`${outputs['run-id']}\``);
    expect(run.summary).not.toContain('wave resume');

    for (const id of ['split', 'count-0', 'report']) expect(run.stdout).toContain(`::group::${id}: completed`);
    expect(run.stdout.match(/^::group::/gm)).toHaveLength(5);
    expect(run.stdout.match(/^::endgroup::/gm)).toHaveLength(5);
    // The report step's own output is inside its group.
    expect(run.stdout).toMatch(/::group::report: completed[\s\S]*"words": \d+[\s\S]*?::endgroup::/);
    expect(run.stdout).not.toMatch(/^::error/m);
  });

  it('fails a failed run with one error annotation per failed step at its line, masking the planted secret', async () => {
    const pipeline = commandPipeline('broken', [
      ['fine', [], 'echo fine'],
      ['leaks', [], 'echo "token $WAVE_TEST_TOKEN"; echo "bad $WAVE_TEST_TOKEN" >&2; exit 3'],
      ['breaks', [], 'exit 4'],
      ['after', ['breaks'], 'echo never'],
    ]);
    const project = makeProject({ 'wave.yaml': PASSTHROUGH_MANIFEST, 'pipelines/broken.yaml': pipeline });
    const run = await runAction(project, { pipeline: 'broken', 'on-failure': 'continue' }, { WAVE_TEST_TOKEN: SECRET });

    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    // Registered before anything else is printed, and never printed unmasked.
    expect(run.stdout.indexOf(`::add-mask::${SECRET}`)).toBe(0);
    expect(run.stdout.split(SECRET)).toHaveLength(2);
    expect(run.summary).not.toContain(SECRET);
    expect(JSON.stringify(run.outputs)).not.toContain(SECRET);

    const errors = run.stdout.match(/^::error title=Step [^\n]*$/gm) ?? [];
    expect(errors).toHaveLength(2);
    expect(errors).toContainEqual(expect.stringContaining(`title=Step leaks failed,file=pipelines/broken.yaml,line=${lineOf(pipeline, 'id: leaks')},`));
    expect(errors).toContainEqual(expect.stringContaining(`title=Step breaks failed,file=pipelines/broken.yaml,line=${lineOf(pipeline, 'id: breaks')},`));
    // The step annotations say why: the job's failure is a plain line, not an annotation saying it again.
    expect(run.stdout).toMatch(/^Wave: the run failed\.$/m);
    expect(run.stdout).not.toContain('::error::Wave: the run failed.');

    const steps = JSON.parse(run.outputs.steps!) as { id: string; status: string; failureClass: string | null }[];
    expect(steps.find((s) => s.id === 'leaks')).toMatchObject({ status: 'failed', failureClass: 'non_zero_exit' });
    expect(steps.find((s) => s.id === 'after')?.status).toBe('skipped');
    expect(run.summary).toMatch(/^\| `leaks` \| failed \| .* \| 1 \|$/m);
    expect(run.summary).toContain(`wave resume ${run.outputs['run-id']}`);
    expect(run.summary).toMatch(/ {4}leaks :crit, s\d, \d+, \d+/);
  });

  it('leaves the job step green with fail-on-error: false', async () => {
    const project = makeProject({ 'pipelines/broken.yaml': commandPipeline('broken', [['breaks', [], 'exit 4']]) });
    const run = await runAction(project, { pipeline: 'broken', 'fail-on-error': 'false' });
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('failure');
    expect(run.stdout).toMatch(/^::error title=Step breaks failed,file=pipelines\/broken\.yaml,line=4,/m);
    expect(run.stdout).not.toContain('::error::Wave: the run');
  });

  it('caps error annotations at ten, the tenth summarising the rest', async () => {
    const ids = Array.from({ length: 13 }, (_, i) => `fails-${i}`);
    const project = makeProject({
      'pipelines/many.yaml': commandPipeline(
        'many',
        ids.map((id) => [id, [], 'exit 1']),
      ),
    });
    const run = await runAction(project, { pipeline: 'many', 'on-failure': 'continue' });
    const annotations = run.stdout.match(/^::error title=[^\n]*/gm) ?? [];
    expect(annotations).toHaveLength(10);
    expect(annotations.filter((a) => /title=Step fails-\d+ failed,file=pipelines\/many\.yaml,line=\d+/.test(a))).toHaveLength(9);
    expect(annotations[9]).toMatch(/^::error title=4 more errors::/);
  });

  it('reports bad input as an error annotation at its file and line', async () => {
    const project = makeProject({
      'pipelines/bad.yaml': 'kind: WavePipeline\nmetadata: { name: bad }\nsteps:\n  - id: a\n    dependencies: [nope]\n    exec: { type: command, source: "true" }\n',
    });
    const run = await runAction(project, { pipeline: 'bad' });
    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    expect(run.stdout).toMatch(/^::error title=Wave%3A unknown_dependency,file=pipelines\/bad\.yaml,line=5,/m);
    const wrong = await runAction(project, { pipeline: 'bad', 'on-failure': 'sometimes' });
    // action.yml is not in the user's repository: without a workflow file named, the annotation names no file.
    expect(wrong.stdout).toMatch(/^::error title=Wave%3A invalid_argument::input `on-failure` is `sometimes`/m);
  });

  it('sets conclusion=cancelled when the runner interrupts it (SIGINT)', async () => {
    const project = makeProject({ 'pipelines/slow.yaml': commandPipeline('slow', [['waits', [], 'sleep 30']]) });
    const { child, stdoutSoFar, finished } = startAction(project, { pipeline: 'slow' });
    await waitFor(() => /run slow-\S+ started/.test(stdoutSoFar()));
    child.kill('SIGINT');
    const run = await finished;
    expect(run.outputs.conclusion).toBe('cancelled');
    expect(JSON.parse(run.outputs.steps!)).toEqual([expect.objectContaining({ id: 'waits', status: 'cancelled' })]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error::Wave: the run was cancelled.');
    expect(readFileSync(join(run.outputs['run-dir']!, 'run.json'), 'utf8')).toContain('"status": "cancelled"');
  });
});
