// End to end, slow (~30 s): the packed tarball installed into an empty project, imported from a TypeScript file that
// `tsc --strict` (module nodenext) compiles and node runs: startRun on a commands-only pipeline, its events, its result.
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

let work: string;
let npmEnv: Record<string, string>;

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

describe('the packed package imported from TypeScript', () => {
  it(
    'compiles under tsc --strict (nodenext) and runs a commands-only pipeline, reading its events and result',
    async () => {
      const run = (command: string, args: string[], cwd: string) => execa(command, args, { cwd, env: npmEnv, extendEnv: false, all: true, reject: false, timeout: NPM_TIMEOUT_MS });
      // Packed as it ships (scripts/pack.mjs) from the built dist/.
      const pack = await run('node', [join(ROOT, 'scripts', 'pack.mjs'), '--pack-destination', work], ROOT);
      expect(pack.exitCode, pack.all).toBe(0);
      const consumer = join(work, 'consumer');
      mkdirSync(consumer);
      writeFileSync(join(consumer, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`);
      const install = await run('npm', ['install', '--prefer-offline', '--ignore-scripts', pack.stdout.trim()], consumer);
      expect(install.exitCode, install.all).toBe(0);
      writeFileSync(join(consumer, 'main.ts'), CONSUMER);
      // No --skipLibCheck: the package's one declaration file checks under --strict with nothing but Node's types.
      const flags = ['--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
      const tsc = await run('node', [TSC, ...flags, '--typeRoots', join(ROOT, 'node_modules', '@types'), '--types', 'node', 'main.ts'], consumer);
      expect(tsc.exitCode, tsc.all).toBe(0);

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
});
