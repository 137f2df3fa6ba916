import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runWave, ROOT } from '../support/cli.js';
import { commandPipeline, makeProject, SHELL_MANIFEST } from '../support/project.js';
import { actionInputsByGithub, parsedByGithub } from './compiled.js';

const PIPELINE = commandPipeline('two', [
  ['first', [], 'echo first'],
  ['second', ['first'], 'echo second'],
]);

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface CompiledJob {
  steps: Array<{ uses?: string; run?: string; env?: Record<string, string> }>;
}

/** The jobs of a compiled workflow's text. */
function jobsOf(text: string): Record<string, CompiledJob> {
  return (parse(text) as { jobs: Record<string, CompiledJob> }).jobs;
}

/** The `run:` of every job's steps, by job id. */
function runsOf(text: string): Record<string, string[]> {
  return Object.fromEntries(Object.entries(jobsOf(text)).map(([id, job]) => [id, job.steps.flatMap((s) => (s.run ? [s.run] : []))]));
}

describe('wave compile -o on a new project', () => {
  it('creates the missing folders of the output file and says what it wrote and what to commit', async () => {
    const dir = makeProject({ 'pipelines/two.yaml': PIPELINE });
    const out = await runWave(['compile', 'pipelines/two.yaml', '-o', '.github/workflows/two.yml'], { cwd: dir });
    expect([out.code, out.stdout]).toEqual([0, '']);
    const text = readFileSync(join(dir, '.github/workflows/two.yml'), 'utf8');
    expect((await parsedByGithub(text)).errors).toEqual([]);
    expect(out.stderr.split('\n')).toEqual([
      `wrote .github/workflows/two.yml: 3 jobs (first, second, run-record); each runs \`npx --yes wave-pipelines@${VERSION}\` (no lockfile here lists wave-pipelines)`,
      'commit it; it runs on workflow_dispatch and workflow_call',
    ]);
  });

  it('names the folder it could not create and why, and writes nothing', async () => {
    const dir = makeProject({ 'pipelines/two.yaml': PIPELINE, '.github': 'a file where the folder should be' });
    const out = await runWave(['compile', 'pipelines/two.yaml', '-o', '.github/workflows/two.yml'], { cwd: dir });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`io_error: cannot create the folder ${join(dir, '.github/workflows')} for the workflow:`);
    expect(out.stderr).toContain('hint: A part of');
    expect(readFileSync(join(dir, '.github'), 'utf8')).toBe('a file where the folder should be');
  });
});

describe('how the jobs get Wave', () => {
  it('without a package.json, every job runs Wave through npx at this version and none runs npm ci', async () => {
    const dir = makeProject({ 'pipelines/two.yaml': PIPELINE });
    const out = await runWave(['compile', 'pipelines/two.yaml'], { cwd: dir });
    expect(out.code).toBe(0);
    for (const [job, runs] of Object.entries(runsOf(out.stdout))) {
      expect([job, runs.includes('npm ci')]).toEqual([job, false]);
      expect([job, runs.at(-1)!.startsWith(`npx --yes wave-pipelines@${VERSION} `)]).toEqual([job, true]);
    }
    expect((await parsedByGithub(out.stdout)).errors).toEqual([]);
  });

  it('with a lockfile listing wave-pipelines, every job runs npm ci and the Wave it installed', async () => {
    const lock = { name: 'app', lockfileVersion: 3, packages: { '': { devDependencies: { 'wave-pipelines': VERSION } }, 'node_modules/wave-pipelines': { version: VERSION } } };
    const dir = makeProject({
      'pipelines/two.yaml': PIPELINE,
      'package.json': JSON.stringify({ name: 'app', devDependencies: { 'wave-pipelines': VERSION } }),
      'package-lock.json': JSON.stringify(lock),
    });
    const out = await runWave(['compile', 'pipelines/two.yaml', '-o', 'wave.yml'], { cwd: dir });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('each installs Wave with `npm ci` (the lockfile lists wave-pipelines)');
    const text = readFileSync(join(dir, 'wave.yml'), 'utf8');
    for (const [job, runs] of Object.entries(runsOf(text))) {
      expect([job, runs[0], runs.at(-1)!.startsWith('npx --no wave ')]).toEqual([job, 'npm ci', true]);
    }
    expect([...actionInputsByGithub(text, 'actions/setup-node').values()].flat().every((inputs) => inputs.cache === 'npm')).toBe(true);
    expect((await parsedByGithub(text)).errors).toEqual([]);
  });

  it('with a package.json whose lockfile lacks wave-pipelines, the jobs still run it through npx', async () => {
    const dir = makeProject({
      'pipelines/two.yaml': PIPELINE,
      'package.json': JSON.stringify({ name: 'app' }),
      'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': {} } }),
    });
    const out = await runWave(['compile', 'pipelines/two.yaml'], { cwd: dir });
    expect(Object.values(runsOf(out.stdout)).every((runs) => !runs.includes('npm ci'))).toBe(true);
    expect(out.stdout).toContain(`npx --yes wave-pipelines@${VERSION} run `);
  });
});

describe('the actions and the Node of the jobs', () => {
  it('pins every action by its commit with the release as a comment, and sets up Node 24', async () => {
    const dir = makeProject({ 'pipelines/two.yaml': PIPELINE });
    const text = (await runWave(['compile', 'pipelines/two.yaml'], { cwd: dir })).stdout;
    const uses = text.split('\n').filter((line) => /^\s*(- )?uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/uses: actions\/[a-z-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    const setups = [...actionInputsByGithub(text, 'actions/setup-node').values()].flat();
    expect(setups.map((inputs) => inputs['node-version'])).toEqual(['24', '24', '24']);
  });
});

describe('secrets in the jobs', () => {
  const manifest = `${SHELL_MANIFEST.replace('adapters:\n', 'adapters:\n  claude: { type: claude }\n').replace('personas:\n', 'personas:\n  writer: { adapter: claude }\n')}  sandbox:\n    env_passthrough: [ANTHROPIC_API_KEY, OPENAI_API_KEY, DEPLOY_TOKEN]\n`;
  const pipeline = `kind: WavePipeline
metadata: { name: mixed }
steps:
  - id: write
    exec: { type: prompt, source: "write the notes" }
    persona: writer
  - id: deploy
    dependencies: [write]
    exec: { type: command, source: "echo deploying with \${DEPLOY_TOKEN}" }
  - id: count
    exec: { type: command, source: "echo 3" }
`;

  it('each job gets only the secrets its step needs: the agent its key, the command what it names, the rest none', async () => {
    const dir = makeProject({ 'wave.yaml': manifest, 'pipelines/mixed.yaml': pipeline });
    const out = await runWave(['compile', 'pipelines/mixed.yaml'], { cwd: dir });
    expect(out.code).toBe(0);
    const jobs = jobsOf(out.stdout);
    const secretsOf = (job: string) => JSON.stringify(jobs[job]).match(/secrets\.\w+/g) ?? [];
    expect(secretsOf('write')).toEqual(['secrets.ANTHROPIC_API_KEY', 'secrets.DEPLOY_TOKEN']);
    expect(secretsOf('deploy')).toEqual(['secrets.DEPLOY_TOKEN']);
    expect(secretsOf('count')).toEqual([]);
    expect(secretsOf('run-record')).toEqual([]);
    // A calling workflow may pass only the secrets some job reads: no step here needs OPENAI_API_KEY.
    const on = (parse(out.stdout) as { on: { workflow_call: { secrets: Record<string, unknown> } } }).on;
    expect(Object.keys(on.workflow_call.secrets)).toEqual(['ANTHROPIC_API_KEY', 'DEPLOY_TOKEN']);
    // The agent's job installs its CLI: there is no lockfile to pin it.
    expect(runsOf(out.stdout).write![0]).toMatch(/^npm install --global --no-fund --no-audit @anthropic-ai\/claude-code@\d/);
    expect((await parsedByGithub(out.stdout)).errors).toEqual([]);
  });
});

describe('wave compile --on', () => {
  it('--on push starts the workflow on push, with the pipeline default as its input', async () => {
    const dir = makeProject({ 'pipelines/two.yaml': PIPELINE });
    const out = await runWave(['compile', 'pipelines/two.yaml', '--on', 'push'], { cwd: dir });
    expect(out.code).toBe(0);
    const workflow = parse(out.stdout) as { on: unknown; env: Record<string, string> };
    expect(workflow.on).toBe('push');
    expect(out.stdout).not.toContain('inputs.');
    expect((await parsedByGithub(out.stdout)).errors).toEqual([]);
  });

  it.each([
    [
      ['--on', 'push', '--on', 'pull_request'],
      ['push', 'pull_request'],
    ],
    [['--on', 'pull_request,workflow_dispatch'], { pull_request: {}, workflow_dispatch: expect.anything() }],
  ])('%j parses with GitHub', async (flags, on) => {
    const dir = makeProject({ 'pipelines/two.yaml': PIPELINE });
    const out = await runWave(['compile', 'pipelines/two.yaml', ...flags], { cwd: dir });
    expect(out.code).toBe(0);
    expect((parse(out.stdout) as { on: unknown }).on).toEqual(on);
    expect((await parsedByGithub(out.stdout)).errors).toEqual([]);
  });

  it('is shown in wave compile --help', async () => {
    const out = await runWave(['compile', '--help']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('--on <events>');
    expect(out.stdout.replace(/\s+/g, ' ')).toContain('pull_request, push, workflow_dispatch, workflow_call');
  });
});

describe('a workflow started on push and by hand', () => {
  it('runs a push with the default input and a dispatch with the one given', async () => {
    const dir = makeProject({ 'pipelines/two.yaml': PIPELINE.replace('metadata: { name: two }\n', 'metadata: { name: two }\ninput: { default: hello }\n') });
    const out = await runWave(['compile', 'pipelines/two.yaml', '--on', 'push,workflow_dispatch'], { cwd: dir });
    const workflow = parse(out.stdout) as { env: Record<string, string> };
    expect(workflow.env).toMatchObject({ WAVE_INPUT: '${{ inputs.input }}', WAVE_DEFAULT_INPUT: 'hello' });
    expect(runsOf(out.stdout).first!.at(-1)).toContain('--input "${WAVE_INPUT:-$WAVE_DEFAULT_INPUT}"');
    expect((await parsedByGithub(out.stdout)).errors).toEqual([]);
  });
});
