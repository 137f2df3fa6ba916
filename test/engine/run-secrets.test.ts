import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandEnvString } from '../../src/config/load/env-expand.js';
import { loadManifest, loadPipeline, readManifest } from '../../src/config/load/load.js';
import { collectArtifacts } from '../../src/engine/artifacts/artifacts.js';
import { buildPlan } from '../../src/plan/plan.js';
import { isSecretVariable, runSecretValues, shortSecretWarnings } from '../../src/engine/run/run-secrets.js';
import { createRedactingStream, Redactor } from '../../src/redact.js';
import { runRedactor } from '../../src/app/run-redactor.js';
import { eventSchemas } from '../../src/event-schema.js';
import type { RunEvent } from '../../src/events.js';
import { makeProject } from '../support/project.js';
import { runWave } from '../support/cli.js';
import { latestRun } from '../support/runs.js';
import { tempDir } from '../fixtures/workspace/helpers.js';

const { RunEventSchema } = eventSchemas();

const SECRET = 'env-secret/with+url=chars&more';

describe('what ${VAR} takes from the environment', () => {
  it('lists the values taken, not the literal defaults, nor escaped references', () => {
    const env = { A: 'value-of-a', EMPTY: '' };
    expect(expandEnvString('${A} ${B:-literal-default} $${A} ${EMPTY:-fallback-value}', env)).toEqual({
      value: 'value-of-a literal-default ${A} fallback-value',
      unset: [],
      taken: { A: 'value-of-a' },
    });
  });

  it("reaches the plan from the manifest (a pipeline's ${VAR} is its shell's, never taken), and the run redactor from the plan", async () => {
    const project = makeProject({
      'wave.yaml': `kind: WaveManifest
metadata: { name: t }
adapters:
  remote: { type: llm, base_url: "http://127.0.0.1:1/v1?key=\${URL_KEY}", env: { FROM_ADAPTER: "\${ADAPTER_VALUE}", DEFAULTED: "\${NOT_SET:-a-literal-default}" } }
personas:
  remote: { adapter: remote }
runtime:
  workspace_root: "\${HOME}/wave-workspaces"
`,
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - id: a
    persona: remote
    exec: { type: prompt, source: "hello \${STEP_VALUE}" }
`,
    });
    const env = { URL_KEY: SECRET, ADAPTER_VALUE: 'adapter-env-value', STEP_VALUE: 'step-env-value', HOME: '/home/someone' };
    const manifest = await loadManifest(join(project, 'wave.yaml'), env);
    const pipeline = await loadPipeline(join(project, 'pipelines/p.yaml'), manifest, env);
    const plan = buildPlan(manifest, pipeline, { input: '' });
    expect(pipeline.envTaken).toEqual({});
    expect(plan.envTaken).toEqual({ URL_KEY: SECRET, ADAPTER_VALUE: 'adapter-env-value', HOME: '/home/someone' });
    // Only URL_KEY's name says secret: ADAPTER_VALUE is data, and HOME is handed to every step anyway.
    expect(runSecretValues(plan, env)).toEqual([SECRET]);
    const redacted = runRedactor(plan, env).redact(
      `POST http://127.0.0.1:1/v1?key=${SECRET}/chat and ${encodeURIComponent(SECRET)}, adapter-env-value, a-literal-default, /home/someone`,
    );
    expect(redacted).toBe('POST http://127.0.0.1:1/v1?key=[REDACTED]/chat and [REDACTED], adapter-env-value, a-literal-default, /home/someone');
  });

  it('registers API keys: an adapter api_key_env read from the parent, the CLI key variables a step env sets, passthrough', async () => {
    const project = makeProject({
      'wave.yaml': `kind: WaveManifest
metadata: { name: t }
adapters:
  remote: { type: llm, base_url: "http://127.0.0.1:1/v1", api_key_env: REMOTE_KEY }
  claude: { env: { ANTHROPIC_API_KEY: literal-anthropic-key-in-manifest } }
personas:
  remote: { adapter: remote }
  writer: { adapter: claude }
runtime: { sandbox: { env_passthrough: [PASSED_TOKEN] } }
`,
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - id: a
    persona: remote
    exec: { type: prompt, source: hello }
  - id: b
    persona: writer
    env: { CLAUDE_CODE_OAUTH_TOKEN: literal-oauth-token-in-pipeline }
    exec: { type: prompt, source: hello }
`,
    });
    const env = { REMOTE_KEY: 'remote-api-key-value', PASSED_TOKEN: 'passed-token-value', UNRELATED: 'not-a-secret-here' };
    const manifest = await loadManifest(join(project, 'wave.yaml'), env);
    const plan = buildPlan(manifest, await loadPipeline(join(project, 'pipelines/p.yaml'), manifest, env), { input: '' });
    expect(runSecretValues(plan, env).sort()).toEqual(
      ['passed-token-value', 'remote-api-key-value', 'literal-anthropic-key-in-manifest', 'literal-oauth-token-in-pipeline'].sort(),
    );
  });

  it("registers the collector's header values (OTEL_EXPORTER_OTLP_HEADERS, runtime.telemetry.otlp.headers), never its endpoint", async () => {
    const project = makeProject({
      'wave.yaml': `kind: WaveManifest
metadata: { name: t }
adapters:
  sh: { type: process }
personas:
  sh: { adapter: sh }
runtime: { telemetry: { otlp: { endpoint: "http://collector.example:4318", headers: { x-tenant: tenant-value-in-manifest } } } }
`,
      'pipelines/p.yaml': 'kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - { id: a, persona: sh, exec: { type: command, source: "true" } }\n',
    });
    const env = { OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20collector-token-value,x-other=other-header-value' };
    const manifest = await loadManifest(join(project, 'wave.yaml'), env);
    const plan = buildPlan(manifest, await loadPipeline(join(project, 'pipelines/p.yaml'), manifest, env), { input: '' });
    expect(runSecretValues(plan, env).sort()).toEqual(['Bearer collector-token-value', 'other-header-value', 'tenant-value-in-manifest'].sort());
    expect(runSecretValues(plan, {})).toEqual(['tenant-value-in-manifest']);
  });

  it('hides a value taken from the environment in a configuration error that quotes it', async () => {
    const project = makeProject({ 'wave.yaml': 'kind: WaveManifest\nmetadata: { name: t }\nruntime: { max_concurrency: "${LONG}", stall_timeout: "${SHORT}" }\n' });
    const long = 'a-long-secret-value-that-is-cut-when-quoted-in-a-message-0123456789';
    const read = await readManifest(join(project, 'wave.yaml'), { LONG: long, SHORT: 'short-secret' });
    const messages = read.errors.map((e) => `${e.message} ${e.hint ?? ''}`).join('\n');
    expect(read.errors.length).toBeGreaterThan(0);
    expect(messages).toContain('[REDACTED]');
    expect(messages).not.toContain(long.slice(0, 20));
    expect(messages).not.toContain('short-secret');
  });
});

describe('what counts as a secret', () => {
  it('names that say so, and what runtime.sandbox.secret_env declares; not a scenario, a model or a URL', () => {
    for (const name of ['GITHUB_TOKEN', 'ANTHROPIC_API_KEY', 'APIKEY', 'DB_PASSWORD', 'AWS_SECRET_ACCESS_KEY', 'GH_AUTH', 'NPM_CREDENTIALS', 'my_private_key']) {
      expect(isSecretVariable(name, []), name).toBe(true);
    }
    for (const name of ['SCEN', 'MODEL', 'ANTHROPIC_BASE_URL', 'AUTHOR', 'KEYBOARD', 'HOME', 'PWD', 'TOKENIZER_PATH']) expect(isSecretVariable(name, []), name).toBe(false);
    expect(isSecretVariable('SCEN', ['SCEN'])).toBe(true);
  });

  it('leaves a short value of an ordinary variable in the records, and warns of a declared secret too short to hide', async () => {
    const project = makeProject({
      'wave.yaml': `kind: WaveManifest
metadata: { name: t }
runtime: { sandbox: { env_passthrough: [SCEN, PIN], secret_env: [PIN] } }
`,
      'pipelines/p.yaml': 'kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - id: a\n    exec: { type: command, source: "echo $SCEN $PIN" }\n',
    });
    const env = { SCEN: 'stall', PIN: '1234', PATH: process.env.PATH };
    const manifest = await loadManifest(join(project, 'wave.yaml'), env);
    const plan = buildPlan(manifest, await loadPipeline(join(project, 'pipelines/p.yaml'), manifest, env), { input: '' });
    expect(runSecretValues(plan, env)).toEqual(['1234']);
    expect(runRedactor(plan, env).redact('failure: stalled after 1234 s')).toBe('failure: stalled after 1234 s');
    expect(shortSecretWarnings(plan, env)).toEqual(['warning: runtime.sandbox.secret_env `PIN` holds 4 characters, fewer than the 8 Wave redacts: it is not hidden\n']);
    const run = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('secret_env `PIN` holds 4 characters');
    const record = readFileSync(join(project, '.wave', 'runs', latestRun(project).id, 'run.json'), 'utf8');
    expect(record).not.toContain('[REDACTED]');
    expect(record).toContain('"status": "completed"');
  });
});

describe('the redactor', () => {
  it('also hides the URL-encoded form of a secret', () => {
    const redactor = new Redactor([SECRET]);
    expect(redactor.redact(`?q=${encodeURIComponent(SECRET)}&x=${SECRET}`)).toBe('?q=[REDACTED]&x=[REDACTED]');
  });

  it('can leave token shapes alone, and then without secrets matches nothing', () => {
    const token = `sk-${'a'.repeat(30)}`;
    expect(new Redactor(['a-secret-value'], { tokenShapes: false }).redact(`${token} a-secret-value`)).toBe(`${token} [REDACTED]`);
    expect(new Redactor([], { tokenShapes: false }).redact(`${token} text`)).toBe(`${token} text`);
  });

  it('counts what a redacting stream replaced', async () => {
    let count = 0;
    const stream = createRedactingStream(new Redactor([SECRET], { tokenShapes: false }), { onRedacted: (n) => (count += n) });
    const out: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => out.push(chunk));
    stream.end(`one ${SECRET}\ntwo ${encodeURIComponent(SECRET)} and ${SECRET}`);
    await new Promise((resolve) => stream.on('end', resolve));
    expect(Buffer.concat(out).toString()).toBe('one [REDACTED]\ntwo [REDACTED] and [REDACTED]');
    expect(count).toBe(3);
  });
});

describe('artifacts holding a secret', () => {
  it('are stored redacted, counted, and left as they are in the workspace', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const workspace = join(dir, 'ws');
      await mkdir(join(workspace, 'folder'), { recursive: true });
      await writeFile(join(workspace, 'report.txt'), `key=${SECRET}\n`);
      await writeFile(join(workspace, 'folder', 'a.txt'), `${encodeURIComponent(SECRET)} ${SECRET}`);
      await writeFile(join(workspace, 'clean.txt'), 'nothing here\n');
      const destDir = join(dir, 'artifacts');
      const { saved } = await collectArtifacts({
        workspace,
        defs: [{ name: 'report', path: 'report.txt' }, { name: 'folder' }, { name: 'clean', path: 'clean.txt' }],
        destDir,
        redactor: new Redactor([SECRET], { tokenShapes: false }),
      });
      expect(saved.map((a) => [a.name, a.redactions])).toEqual([
        ['report', 1],
        ['folder', 2],
        ['clean', undefined],
      ]);
      expect(readFileSync(join(destDir, 'report.txt'), 'utf8')).toBe('key=[REDACTED]\n');
      expect(readFileSync(join(destDir, 'folder', 'a.txt'), 'utf8')).toBe('[REDACTED] [REDACTED]');
      expect(saved[0]!.bytes).toBe('key=[REDACTED]\n'.length);
      expect(readFileSync(join(workspace, 'report.txt'), 'utf8')).toBe(`key=${SECRET}\n`);
    } finally {
      await cleanup();
    }
  });
});

describe('the artifact_redacted event', () => {
  it('is a RunEvent the schema accepts, and refused without its count', () => {
    const event: RunEvent = { v: 1, ts: '2024-05-01T12:00:00.000Z', runId: 'r', type: 'artifact_redacted', stepId: 'a', name: 'report', path: 'artifacts/a/report.txt', count: 2 };
    expect(RunEventSchema.parse(event)).toEqual(event);
    expect(RunEventSchema.safeParse({ ...event, count: undefined }).success).toBe(false);
  });

  it('carries a refused artifact as the failure class artifact_path_invalid', () => {
    const failure = { class: 'artifact_path_invalid', message: 'artifact `x`: `d/passwd` leads outside the workspace (to /etc)' };
    const event = { v: 1, ts: '2024-05-01T12:00:00.000Z', runId: 'r', type: 'step_failed', stepId: 'a', attempt: 1, durationMs: 1, failure, optional: false };
    expect(RunEventSchema.safeParse(event).success).toBe(true);
  });
});
