import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AdapterRegistry, defaultRegistry } from '../../src/adapters/registry.js';
import { runRedactor } from '../../src/app/run-redactor.js';
import { newRunRecord } from '../../src/state/record/new-run-record.js';
import { RunStore } from '../../src/state/run-store.js';
import { livePort, type AttemptPort, type AttemptRequest } from '../../src/engine/attempt/attempt-port.js';
import { executeRun } from '../../src/engine/run/run-pipeline.js';
import { EventBus } from '../../src/events.js';
import { plannedRun } from '../support/mock-run.js';
import { MockRunner } from '../support/mock-runner.js';
import { commandPipeline } from '../support/project.js';

const SECRET = 'port-secret-value-1234';

const MANIFEST = `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: { binary: claude, env: { SERVICE_TOKEN: "\${WAVE_TEST_PORT_SECRET}" } }
personas:
  agent: { adapter: claude, system_prompt_file: personas/agent.md, permissions: { allowed_tools: [Read], deny: [Bash] } }
`;

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: a, persona: agent, exec: { source: "use ${SECRET} now" } }
`;

afterEach(() => void delete process.env.WAVE_TEST_PORT_SECRET);

/** Runs the pipeline in-process on a mock claude runner, through `attempts` when given. */
async function execute(attempts?: AttemptPort) {
  process.env.WAVE_TEST_PORT_SECRET = SECRET;
  const { plan } = await plannedRun(PIPELINE, { manifest: MANIFEST, files: { 'personas/agent.md': 'You review.\n' } });
  // As `wave run` records it: through the run's redactor.
  const store = RunStore.create(plan.runtime.runsRoot, newRunRecord('port-run', plan, { onFailure: 'halt', keepWorkspaces: true }), runRedactor(plan));
  const registry = new AdapterRegistry().register(new MockRunner(() => ({ result: { text: 'done', costUsd: 0.5 } }), 'claude'));
  const context = { plan, store, bus: new EventBus(), registry, parentEnv: process.env, ...(attempts ? { attempts } : {}) };
  const status = await executeRun(context, { onFailure: 'halt', signal: new AbortController().signal });
  return { status, store };
}

describe('the attempt port', () => {
  it('keeps what went into an attempt and what came out in attempt.json, the run’s secrets redacted', async () => {
    const { status, store } = await execute();
    expect(status).toBe('completed');
    const text = readFileSync(join(store.attemptPath('a', 1), 'attempt.json'), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text)).toMatchObject({
      purpose: 'step',
      adapter: { name: 'claude', type: 'claude' },
      execType: 'prompt',
      prompt: 'use [REDACTED] now',
      persona: 'agent',
      systemPrompt: expect.stringContaining('You review.'),
      envNames: expect.arrayContaining(['SERVICE_TOKEN', 'WAVE_STEP_ID']),
      ok: true,
      exitCode: 0,
      costUsd: 0.5,
    });
  });

  it('marks attempt.json as a recording and hashes the prompt and system prompt as stored, after redaction', async () => {
    const { store } = await execute();
    const record = JSON.parse(readFileSync(join(store.attemptPath('a', 1), 'attempt.json'), 'utf8')) as Record<string, string>;
    const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
    expect(record).toMatchObject({ recording: 1, signal: null, permissions: { allowedTools: ['Read'], deniedTools: ['Bash'] } });
    expect(record.promptHash).toBe(sha256('use [REDACTED] now'));
    expect(record.systemPromptHash).toBe(sha256(record.systemPrompt!));
    expect(record.cliVersion).toBeUndefined();
  });

  it('is where every attempt goes: a port given to the run sees each request and answers it', async () => {
    const seen: AttemptRequest[] = [];
    const live = livePort();
    const { status } = await execute({ run: (request) => (seen.push(request), live.run(request)) });
    expect(status).toBe('completed');
    expect(seen.map((r) => [r.purpose, r.config.stepId, r.config.attempt, r.config.prompt])).toEqual([['step', 'a', 1, `use ${SECRET} now`]]);
  });
});

describe('the attempt port records a process attempt as it ran', () => {
  it('keeps its command line (the secrets redacted) and when each piece of its stdout and stderr came', async () => {
    process.env.WAVE_TEST_PORT_SECRET = SECRET;
    const manifest = 'kind: WaveManifest\nmetadata: { name: t }\nruntime: { sandbox: { secret_env: [WAVE_TEST_PORT_SECRET] } }\n';
    const command = `printf 'one\\n'; sleep 0.3; printf 'two\\n' >&2; sleep 0.3; printf 'three ${SECRET}\\n'`;
    const { plan } = await plannedRun(commandPipeline('p', [['cmd', [], command]]), { manifest });
    const redactor = runRedactor(plan);
    const store = RunStore.create(plan.runtime.runsRoot, newRunRecord('timing-run', plan, { onFailure: 'halt', keepWorkspaces: true }), redactor);
    const context = { plan, store, bus: new EventBus(), registry: defaultRegistry({ redactor }), parentEnv: process.env };
    expect(await executeRun(context, { onFailure: 'halt', signal: new AbortController().signal })).toBe('completed');
    const folder = store.attemptPath('cmd', 1);
    const attempt = JSON.parse(readFileSync(join(folder, 'attempt.json'), 'utf8')) as { argv: string[] };
    expect(attempt.argv[0]).toBe('/bin/sh');
    expect(attempt.argv.join(' ')).toContain("printf 'three [REDACTED]");
    expect(attempt.argv.join(' ')).not.toContain(SECRET);
    const pieces = readFileSync(join(folder, 'output.timing'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    expect(pieces.map(([, stream, length]) => [stream, Number(length)])).toEqual([
      ['stdout', 4],
      ['stderr', 4],
      ['stdout', 4 + 'three [REDACTED]\n'.length],
    ]);
    // The lengths are the stored (redacted) files', and each piece came after the sleep before it.
    expect(readFileSync(join(folder, 'stdout'), 'utf8')).toBe('one\nthree [REDACTED]\n');
    const times = pieces.map(([ms]) => Number(ms));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(250);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(250);
  });
});
