// End to end, slow (~30 s): the packed tarball installed into an empty project, imported from TypeScript files that
// `tsc --strict` (module nodenext) compiles and node runs: startRun on a commands-only pipeline, its events, its result;
// and an adapter plugin written in TypeScript against `wave-pipelines/adapter`, run through startRun.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

const NPM_TIMEOUT_MS = 240_000;
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** What a user writes: typed options, a typed event narrowed by its type, a typed result. */
const CONSUMER = `import { loadProject, startRun, WaveError, type Pipeline, type RunEvent, type RunResult } from 'wave-pipelines';

const run = startRun({ dir: process.argv[2] ?? '.', pipeline: 'hello', input: 'typed' });
const types: RunEvent['type'][] = [];
const lines: string[] = [];
for await (const event of run) {
  types.push(event.type);
  if (event.type === 'step_output') lines.push(\`\${event.stepId}: \${event.line}\`);
}
// @ts-expect-error: an event's type is one of its names, never a number (the types are real, not any).
const wrong: number = types[0];
const result: RunResult = await run.result;
const project = await loadProject(process.argv[2] ?? '.');
const pipeline: Pipeline | undefined = project.pipelines.find((entry) => entry.name === 'hello')?.pipeline;
const stepIds: string[] = pipeline?.steps.map((step) => step.id) ?? [];
// @ts-expect-error: a pipeline's kind is the literal WavePipeline (the format types are spelled out, not any).
const notAPipeline: Pipeline = { kind: 'WaveManifest', metadata: { name: 'x' }, steps: [] };
const failed = await startRun({ dir: process.argv[2] ?? '.', pipeline: 'absent' }).result.catch((error: unknown) => error);
const code = failed instanceof WaveError ? failed.code : 'not a WaveError';
console.log(JSON.stringify({ types, lines, status: result.status, exitCode: result.exitCode, runId: result.runId, code, wrong, stepIds, notAPipeline: notAPipeline.kind }));
`;

const HELLO = `kind: WavePipeline
metadata: { name: hello }
steps:
  - { id: greet, exec: { type: command, source: "echo hello {{ input }}" } }
  - { id: answer, dependencies: [greet], exec: { type: command, source: "echo got {{ steps.greet.output }}" } }
`;

/** A team's plugin for its in-house CLI (plugin-cli of the test tree), in TypeScript: one file, typed by the package. */
const PLUGIN = `import { defineAdapter, type AgentOutcome, type StreamEvent, type TokenUsage } from 'wave-pipelines/adapter';

interface Line { type?: string; id?: string; text?: string; input?: number; output?: number; code?: string; message?: string }

export default defineAdapter({
  name: 'plugin-cli',
  binary: 'plugin-cli',
  prepare: async (config) => ({ args: ['run', '--json'], env: { ...config.env }, stdin: config.prompt }),
  stream: () => {
    const tokens: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    let outcome: AgentOutcome = { ok: false, text: '', tokens, failure: { class: 'non_zero_exit', message: 'plugin-cli gave no answer' } };
    let sessionId: string | undefined;
    return {
      line(text: string): StreamEvent[] {
        let line: Line;
        try {
          line = JSON.parse(text) as Line;
        } catch {
          return [];
        }
        if (line.type === 'session' && line.id) return [{ kind: 'system', subtype: 'init', sessionId: (sessionId = line.id) }];
        if (line.type === 'usage') {
          const used = { input: line.input ?? 0, output: line.output ?? 0, cacheRead: 0, cacheWrite: 0 };
          Object.assign(tokens, { input: tokens.input + used.input, output: tokens.output + used.output });
          return [{ kind: 'usage', tokens: used }];
        }
        if (line.type === 'done') outcome = { ok: true, text: line.text ?? '', tokens, ...(sessionId ? { sessionId } : {}) };
        if (line.type === 'error') outcome = { ok: false, text: '', tokens, failure: { class: line.code === 'rate_limited' ? 'rate_limited' : 'non_zero_exit', message: line.message ?? '' } };
        return line.type === 'text' ? [{ kind: 'text', text: line.text ?? '' }] : [];
      },
      finish: () => outcome,
    };
  },
  resumeArgs: (id) => ['--resume', id],
});
`;

/** The team's project: its adapter names the plugin module and the CLI's binary. */
const AGENT_MANIFEST = `kind: WaveManifest
metadata: { name: in-house }
adapters:
  inhouse: { module: ../mycli.js, binary: ${JSON.stringify(join(ROOT, 'test', 'fixtures', 'plugin-cli', 'plugin-cli.mjs'))} }
personas:
  dev: { adapter: inhouse }
`;
const AGENT = `kind: WavePipeline
metadata: { name: agent }
steps:
  - { id: ask, persona: dev, exec: { type: prompt, source: "hello from {{ input }}" } }
`;

/** Runs the agent pipeline through the API and prints what the plugin's stream became. */
const AGENT_CONSUMER = `import { startRun } from 'wave-pipelines';

const run = startRun({ dir: process.argv[2] ?? '.', pipeline: 'agent', input: 'typescript' });
const texts: string[] = [];
for await (const event of run) if (event.type === 'attempt_finished') texts.push(event.text ?? '');
const result = await run.result;
const step = result.record.steps['ask'];
console.log(JSON.stringify({ status: result.status, texts, tokens: step?.tokens, session: step?.attempts.at(-1)?.sessionId }));
`;

let work: string;
let npmEnv: Record<string, string>;
let consumer: string;
const run = (command: string, args: string[], cwd: string) => execa(command, args, { cwd, env: npmEnv, extendEnv: false, all: true, reject: false, timeout: NPM_TIMEOUT_MS });
/** tsc as a consumer runs it. No --skipLibCheck: the package's declaration files check under --strict with nothing but Node's types. */
const tsc = (file: string) =>
  run(
    'node',
    [TSC, '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--typeRoots', join(ROOT, 'node_modules', '@types'), '--types', 'node', file],
    consumer,
  );

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wave-api-tarball-'));
  writeFileSync(join(work, 'npmrc'), '');
  // npm as on a fresh machine: no user config, nothing inherited from an \`npm test\` around this run.
  npmEnv = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => !entry[0].toLowerCase().startsWith('npm_') && entry[1] !== undefined));
  Object.assign(npmEnv, { npm_config_userconfig: join(work, 'npmrc'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false', NO_COLOR: '1' });
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

beforeAll(async () => {
  // Packed as it ships (scripts/pack.mjs) from the built dist/.
  const pack = await run('node', [join(ROOT, 'scripts', 'pack.mjs'), '--pack-destination', work], ROOT);
  expect(pack.exitCode, pack.all).toBe(0);
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`);
  const install = await run('npm', ['install', '--prefer-offline', '--ignore-scripts', pack.stdout.trim()], consumer);
  expect(install.exitCode, install.all).toBe(0);
}, NPM_TIMEOUT_MS);

describe('the packed package imported from TypeScript', () => {
  it(
    'compiles under tsc --strict (nodenext) and runs a commands-only pipeline, reading its events and result',
    async () => {
      writeFileSync(join(consumer, 'main.ts'), CONSUMER);
      const compiled = await tsc('main.ts');
      expect(compiled.exitCode, compiled.all).toBe(0);

      const project = join(work, 'project');
      mkdirSync(join(project, 'pipelines'), { recursive: true });
      writeFileSync(join(project, 'pipelines', 'hello.yaml'), HELLO);
      const main = await run('node', ['main.js', project], consumer);
      expect(main.exitCode, main.all).toBe(0);
      const said = JSON.parse(main.stdout) as { types: string[]; lines: string[]; status: string; exitCode: number; runId: string; code: string; stepIds: string[] };
      expect(said.lines).toEqual(['greet: hello typed', 'answer: got hello typed']);
      expect(said.types.at(0)).toBe('run_started');
      expect(said.types.at(-1)).toBe('run_finished');
      expect(said.types.filter((type) => type === 'step_completed')).toHaveLength(2);
      expect(said).toMatchObject({ status: 'completed', exitCode: 0, runId: expect.stringMatching(/^hello-/), code: 'file_not_found', stepIds: ['greet', 'answer'] });
      // Nothing but what the program printed: the API itself printed nothing.
      expect(main.stderr).toBe('');
    },
    NPM_TIMEOUT_MS,
  );

  it(
    'compiles a plugin written in TypeScript against wave-pipelines/adapter, and a run through it gets text, tokens and the session',
    async () => {
      writeFileSync(join(consumer, 'mycli.ts'), PLUGIN);
      writeFileSync(join(consumer, 'agent.ts'), AGENT_CONSUMER);
      const compiled = await tsc('mycli.ts');
      expect(compiled.exitCode, compiled.all).toBe(0);
      const agent = await tsc('agent.ts');
      expect(agent.exitCode, agent.all).toBe(0);
      const project = join(consumer, 'project');
      mkdirSync(join(project, 'pipelines'), { recursive: true });
      writeFileSync(join(project, 'wave.yaml'), AGENT_MANIFEST);
      writeFileSync(join(project, 'pipelines', 'agent.yaml'), AGENT);
      const main = await run('node', ['agent.js', project], consumer);
      expect(main.exitCode, main.all).toBe(0);
      const said = JSON.parse(main.stdout) as { status: string; texts: string[]; tokens: { input: number; output: number }; session?: string };
      expect(said.status).toBe('completed');
      expect(said.texts).toEqual(['plugin-cli answered: hello from typescript']);
      expect(said.tokens).toMatchObject({ input: 150, output: 30 });
      expect(said.session).toMatch(/^[0-9a-f-]{36}$/);
    },
    NPM_TIMEOUT_MS,
  );
});
