import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun, runDirs } from '../support/runs.js';

// URL-special characters, so its URL-encoded form differs from it.
const SECRET = 'planted-S3cret+value=x&y/z';
const ENCODED = encodeURIComponent(SECRET);
const NODE = JSON.stringify(process.execPath);

const MANIFEST = `kind: WaveManifest
metadata: { name: t }
project: { token: "\${MY_SECRET}" }
adapters:
  printer: { type: process, binary: sh, env: { ADAPTER_TOKEN: "\${MY_SECRET}" } }
  remote: { type: llm, base_url: "http://127.0.0.1:1/v1?key=\${MY_SECRET}", model: m }
personas:
  printer: { adapter: printer }
  remote: { adapter: remote }
runtime:
  timeouts: { process_grace_seconds: 1 }
  sandbox: { env_passthrough: [MY_SECRET] }
`;

// Each step meets the secret another way: a passed-through variable its shell reads (a pipeline's \${VAR} is the shell's,
// as in Wave), an adapter's env, a base_url query, a project value the manifest took and the command's template inserts.
const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: cmd
    exec:
      type: command
      source: |
        export STEP_TOKEN="\${MY_SECRET}"
        OTHER="\${UNSET_IN_TEST:-literal-default-value}"
        echo "step=$STEP_TOKEN default=$OTHER"
        echo "stderr=$STEP_TOKEN" >&2
        ${NODE} -e 'console.log("encoded=" + encodeURIComponent(process.env.STEP_TOKEN))'
        printf 'raw: %s\\n' "$STEP_TOKEN" > secret.txt
        ${NODE} -e 'console.log("encoded: " + encodeURIComponent(process.env.STEP_TOKEN))' >> secret.txt
    output_artifacts: [{ name: secret, path: secret.txt }]
  - id: agent
    persona: printer
    exec: { type: prompt, source: 'echo "adapter=$ADAPTER_TOKEN"' }
  - id: model
    persona: remote
    exec: { type: prompt, source: hello }
  - id: literal
    exec: { type: command, source: "echo literal={{ project.token }}" }
`;

const ENV = { MY_SECRET: SECRET };

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

function expectHidden(text: string, where: string): void {
  expect(text, where).not.toContain(SECRET);
  expect(text, where).not.toContain(ENCODED);
}

describe('values taken from the environment by ${VAR} are redacted everywhere', () => {
  let project: string;
  let text: Awaited<ReturnType<typeof runWave>>;
  let json: Awaited<ReturnType<typeof runWave>>;

  beforeAll(async () => {
    project = makeProject({ 'wave.yaml': MANIFEST, 'pipelines/p.yaml': PIPELINE });
    text = await runWave(['run', 'p', '--output', 'text', '--on-failure', 'continue'], { cwd: project, env: ENV });
    json = await runWave(['run', 'p', '--json', '--on-failure', 'continue'], { cwd: project, env: ENV });
  }, 120_000);

  it('reaches the steps, which print it (stdout, stderr, its URL-encoded form) and fail with it in a message', () => {
    // The model step fails (nothing listens on port 1), so both runs fail and keep their workspaces.
    expect(text.code, text.stderr).toBe(1);
    expect(json.code, json.stderr).toBe(1);
    const record = latestRun(project);
    expect(record.steps.cmd!.status).toBe('completed');
    expect(record.steps.agent!.status).toBe('completed');
    expect(record.steps.literal!.status).toBe('completed');
    const failure = record.steps.model!.failure!;
    expect(failure.message).toContain('could not reach');
    expect(failure.message).toContain('?key=[REDACTED]');
    const runDir = join(project, '.wave', 'runs', record.id);
    const stdout = readFileSync(join(runDir, 'steps', 'cmd', 'attempt-1', 'stdout'), 'utf8');
    expect(stdout).toContain('step=[REDACTED]');
    expect(stdout).toContain('encoded=[REDACTED]');
    // A literal default is not taken from the environment: it stays readable.
    expect(stdout).toContain('default=literal-default-value');
    expect(readFileSync(join(runDir, 'steps', 'cmd', 'attempt-1', 'stderr'), 'utf8')).toContain('stderr=[REDACTED]');
    expect(readFileSync(join(runDir, 'steps', 'agent', 'output.txt'), 'utf8')).toContain('adapter=[REDACTED]');
    expect(readFileSync(join(runDir, 'steps', 'literal', 'output.txt'), 'utf8')).toContain('literal=[REDACTED]');
  });

  it('appears raw or URL-encoded in no file of either run folder: run.json, events.ndjson, output.txt, stdout, stderr, artifacts', () => {
    const dirs = runDirs(project);
    expect(dirs).toHaveLength(2);
    for (const dir of dirs) {
      const files = filesUnder(dir);
      for (const name of ['run.json', 'events.ndjson', 'steps/cmd/output.txt', 'steps/agent/output.txt', 'steps/cmd/attempt-1/stdout', 'steps/cmd/attempt-1/stderr']) {
        expect(files).toContain(join(dir, name));
      }
      for (const file of files) expectHidden(readFileSync(file, 'utf8'), file);
    }
  });

  it('appears in neither the text output nor the --json output', () => {
    expectHidden(text.stdout + text.stderr, 'text output');
    expectHidden(json.stdout + json.stderr, '--json output');
    expect(text.stdout).toContain('could not reach');
    expect(json.stdout).toContain('could not reach');
  });

  it('is redacted in the stored copy of an artifact, with an artifact_redacted event, and left in the workspace file', () => {
    const record = latestRun(project);
    const runDir = join(project, '.wave', 'runs', record.id);
    const stored = readFileSync(join(runDir, 'artifacts', 'cmd', 'secret.txt'), 'utf8');
    expect(stored).toBe('raw: [REDACTED]\nencoded: [REDACTED]\n');
    const workspace = record.steps.cmd!.workspace!;
    expect(readFileSync(join(workspace, 'secret.txt'), 'utf8')).toBe(`raw: ${SECRET}\nencoded: ${ENCODED}\n`);
    const events = readFileSync(join(runDir, 'events.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((e) => e.type === 'artifact_redacted')).toEqual([
      expect.objectContaining({ type: 'artifact_redacted', stepId: 'cmd', name: 'secret', path: join('artifacts', 'cmd', 'secret.txt'), count: 2 }),
    ]);
    expect(json.stdout).toContain('"type":"artifact_redacted"');
    expect(text.stdout).toContain('artifact secret: 2 secrets redacted in the stored copy');
  });

  it('is hidden in --dry-run, which prints the commands the plan holds', async () => {
    const dry = await runWave(['run', 'p', '--dry-run'], { cwd: project, env: ENV });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('echo literal=[REDACTED]');
    expectHidden(dry.stdout + dry.stderr, '--dry-run');
  });

  it('is hidden in a configuration error that quotes the value', async () => {
    const broken = makeProject({
      'wave.yaml': `kind: WaveManifest\nmetadata: { name: t }\nruntime: { max_concurrency: "\${MY_SECRET}" }\n`,
      'pipelines/p.yaml': PIPELINE,
    });
    for (const args of [['run', 'p'], ['run', 'p', '--json'], ['validate']]) {
      const result = await runWave(args, { cwd: broken, env: ENV });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout + result.stderr, args.join(' ')).toContain('max_concurrency');
      expectHidden(result.stdout + result.stderr, args.join(' '));
    }
  });
});
