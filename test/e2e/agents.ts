import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { AGENT_PACKAGES } from '../../src/adapters/agent-clis.js';
import { resolveBinary } from '../../src/process/binary.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

/** One request the scripted model server received. */
export interface LoggedRequest {
  method?: string;
  url?: string;
  scenario: string;
  path?: string;
  requestIndex: number;
  headers: Record<string, string | string[] | undefined>;
  body?: Record<string, unknown> & { stream?: boolean };
  note?: string;
}

/** The scripted model server, started in this test process. */
export interface ModelServer {
  url: string;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

// A computed specifier: the server is plain JavaScript without type declarations.
const SERVER_MODULE: string = new URL('../support/model-server.mjs', import.meta.url).href;

/** Starts the scripted model server on a free port of 127.0.0.1. */
export async function startModelServer(): Promise<ModelServer> {
  const module = (await import(SERVER_MODULE)) as { startModelServer: (options?: object) => Promise<ModelServer> };
  return module.startModelServer();
}

/** Encodes a command or file content as a scenario path parameter. */
export function param(text: string): string {
  return Buffer.from(text).toString('base64url');
}

/**
 * Whether the agent CLI `binary` is installed (PATH or node_modules/.bin). When it is not, the test is skipped
 * with a message naming the npm package, except under CI=true, where its absence is an error.
 */
export function cliAvailable(binary: string): boolean {
  if (resolveBinary(binary, process.env)) return true;
  const message = `${binary} is not installed: npm install --save-dev ${AGENT_PACKAGES[binary] ?? binary}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`skipping ${binary} end-to-end tests: ${message}`);
  return false;
}

/** A run's events as parsed objects. */
export function runEvents(project: string, record: RunRecord): Array<Record<string, any>> {
  const text = readFileSync(join(project, '.wave', 'runs', record.id, 'events.ndjson'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** The file of an artifact the run recorded: its path is absolute, or relative to the run's folder. */
export function artifactPath(run: AgentRun, path: string): string {
  return path.startsWith('/') ? path : join(run.project, '.wave', 'runs', run.record.id, path);
}

/** The text of a file in a step attempt's folder. */
export function attemptFile(project: string, record: RunRecord, stepId: string, attempt: number, name: string): string {
  return readFileSync(join(project, '.wave', 'runs', record.id, 'steps', stepId, `attempt-${attempt}`, name), 'utf8');
}

/** The NDJSON lines a step's first attempt printed on stdout (the CLI's own stream), parsed; only those of `type` when given. */
export function attemptStream(run: AgentRun, stepId: string, type?: string): Array<Record<string, any>> {
  return attemptFile(run.project, run.record, stepId, 1, 'stdout')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((o) => type === undefined || o.type === type);
}

/** The text of a step's artifact `out`; fails the test when the step kept none. */
export function artifactText(run: AgentRun, stepId: string): string {
  const artifact = run.record.steps[stepId]!.artifacts.find((a) => a.name === 'out');
  expect(artifact, `step ${stepId} kept no artifact`).toBeDefined();
  return readFileSync(artifactPath(run, artifact!.path), 'utf8');
}

/** The files a step's attempt added or changed in its workspace. */
export function changedFiles(run: AgentRun, stepId: string): string[] {
  return (run.record.steps[stepId]!.filesChanged ?? []).map((f) => f.path);
}

export interface AgentRun {
  code: number;
  stdout: string;
  stderr: string;
  project: string;
  record: RunRecord;
  events: Array<Record<string, any>>;
}

/** Makes a project from a manifest and one pipeline `p`, runs it with `wave run p --output json` (and `flags`), and reads the run. */
export async function runAgentPipeline(manifest: string, pipeline: string, files: Record<string, string> = {}, flags: string[] = []): Promise<AgentRun> {
  const project = makeProject({ 'wave.yaml': manifest, 'pipelines/p.yaml': pipeline, ...files });
  const result = await runWave(['run', 'p', '--output', 'json', ...flags], { cwd: project, timeout: 280_000 });
  const record = latestRun(project);
  return { ...result, project, record, events: runEvents(project, record) };
}

/** A one-step pipeline running `prompt` as persona `persona`, with optional extra step keys (YAML, indented 4). */
export function oneStepPipeline(persona: string, extra = ''): string {
  return `kind: WavePipeline
metadata: { name: p }
steps:
  - id: work
    persona: ${persona}
    exec: { type: prompt, source: "Do the task." }
${extra}`;
}

/** A test manifest from its adapter lines (each `  name: { … }`) and persona lines; processes get 1 s of grace. */
export function manifestWith(adapterLines: readonly string[], personas: string, runtime = ''): string {
  return `kind: WaveManifest
metadata: { name: e2e }
adapters:
${adapterLines.join('\n')}
personas:
${personas}
runtime:
  timeouts: { process_grace_seconds: 1 }
${runtime}`;
}

/** Builds manifests whose adapters of one CLI type each point at one scenario of the server. */
export function agentManifest(type: string, model: string, extra = '') {
  return (adapters: Record<string, string>, personas: string, runtime = ''): string => {
    const lines = Object.entries(adapters).map(
      ([name, baseUrl]) => `  ${name}: { type: ${type}, binary: ${type}, model: ${model}, isolated: true, base_url: "${baseUrl}"${extra} }`,
    );
    return manifestWith(lines, personas, runtime);
  };
}

/** A manifest whose claude adapters each point at one scenario of the server. */
export const claudeManifest = agentManifest('claude', 'claude-test', ', env: { ANTHROPIC_API_KEY: fake-key }');

/** The personas of the two-step runs: a writer with its own prompt file, and a reader. */
export const WRITER_AND_READER = '  writer: { adapter: writer, system_prompt_file: personas/writer.md }\n  reader: { adapter: reader }';

/** Step 1 writes notes.txt with the agent's own tool; step 2 gets it injected and prints it. */
export const WRITE_THEN_READ = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: write
    persona: writer
    exec: { type: prompt, source: "Write notes.txt." }
    output_artifacts: [{ name: notes, path: notes.txt }]
  - id: read
    persona: reader
    dependencies: [write]
    memory: { inject_artifacts: [{ step: write, artifact: notes, as: notes }] }
    exec: { type: prompt, source: "Print {{ artifacts.notes }}." }
`;

/** A step whose answer is its `out` artifact, reviewed by persona `critic` against criteria.md with that artifact as context. */
export function reviewedPipeline(review: string): string {
  return `kind: WavePipeline
metadata: { name: p }
steps:
  - id: work
    persona: writer
    exec: { type: prompt, source: "Review the change and answer with JSON." }
    output_artifacts: [{ name: out, source: stdout }]
    handover:
      contract:
        type: agent_review
        persona: critic
        criteria_path: criteria.md
        context: [{ source: artifact, artifact: out }]
${review}
`;
}

/** The one tool call a scenario of the server makes: write file `write` (with `content`), or run `shell` in a shell. */
export type ScriptedCall = { write: string; content?: string } | { shell: string };

/** A step of a permission run: its persona's `permissions` (YAML flow), the call the model makes, a file kept as artifact `out`. */
export interface PermissionStep {
  permissions: string;
  call: ScriptedCall;
  keep?: string;
}

/** How one CLI meets the server: its manifest builder, and the API path after the scenario (`/v1` for OpenAI's APIs). */
export interface AgentCli {
  manifest: (adapters: Record<string, string>, personas: string) => string;
  api?: string;
}

/** The URL of the server's scenario that makes `call`, for a CLI whose API path is `api`. */
function scenarioUrl(server: ModelServer, call: ScriptedCall, api = ''): string {
  const scenario = 'shell' in call ? `shell/${param(call.shell)}` : `write/${encodeURIComponent(call.write)}${call.content === undefined ? '' : `/${param(call.content)}`}`;
  return `${server.url}/s/${scenario}${api}`;
}

/** Runs one independent step per entry (step, persona and adapter share its name), each adapter scripted to make its call. */
async function runPermissionSteps(cli: AgentCli, server: ModelServer, steps: Record<string, PermissionStep>): Promise<AgentRun> {
  const entries = Object.entries(steps);
  const adapters = Object.fromEntries(entries.map(([name, step]) => [name, scenarioUrl(server, step.call, cli.api)]));
  const personas = entries.map(([name, step]) => `  ${name}: { adapter: ${name}, permissions: ${step.permissions} }`).join('\n');
  const pipelineSteps = entries.map(([name, step]) => {
    const artifacts = step.keep ? `    output_artifacts: [{ name: out, path: "${step.keep}" }]\n` : '';
    return `  - id: ${name}\n    persona: ${name}\n    exec: { type: prompt, source: "Do the task." }\n${artifacts}`;
  });
  return runAgentPipeline(cli.manifest(adapters, personas), `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${pipelineSteps.join('')}`);
}

/** For a describe block: starts the scripted model server around its tests, and gives a function that runs steps on it with `cli`. */
export function permissionRunner(cli: AgentCli): (steps: Record<string, PermissionStep>) => Promise<AgentRun> {
  let server: ModelServer | undefined;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());
  return (steps) => runPermissionSteps(cli, server!, steps);
}

/** The permissions of every persona of Wave's own wave.yaml. */
export const ALLOW_ALL = '{ allowed_tools: ["*"], deny: [] }';

/** The model writes notes.txt. */
const WRITE_NOTES: ScriptedCall = { write: 'notes.txt', content: 'written under *\n' };
/** The model runs a command that writes ran.txt and prints it. */
export const RUN_ECHO: ScriptedCall = { shell: 'echo ran > ran.txt && cat ran.txt' };

/** writer and runner may do anything and keep what they made; nowriter and norunner make the same calls under deny ["*"]. */
export const ALL_OR_NOTHING: Record<string, PermissionStep> = {
  writer: { permissions: ALLOW_ALL, call: WRITE_NOTES, keep: 'notes.txt' },
  runner: { permissions: ALLOW_ALL, call: RUN_ECHO, keep: 'ran.txt' },
  nowriter: { permissions: '{ allowed_tools: ["*"], deny: ["*"] }', call: WRITE_NOTES },
  norunner: { permissions: '{ deny: ["*"] }', call: RUN_ECHO },
};

const SCOPED_RULES = '{ allowed_tools: [Read, "Write(.agents/output/*)", "Bash(echo *)"] }';

/** Scoped rules (Write only under .agents/output/, Bash only for echo): inside and echo are allowed, outside and touch are not. */
export const SCOPED: Record<string, PermissionStep> = {
  inside: { permissions: SCOPED_RULES, call: { write: '.agents/output/report.md', content: '# report\n' }, keep: '.agents/output/report.md' },
  outside: { permissions: SCOPED_RULES, call: { write: 'report.md', content: '# report\n' } },
  echo: { permissions: SCOPED_RULES, call: { shell: 'echo hello' } },
  touch: { permissions: SCOPED_RULES, call: { shell: 'touch made.txt' } },
};

/** What Wave recorded of ALL_OR_NOTHING: the run passed, writer and runner kept what they made, nowriter and norunner changed nothing. */
export function expectAllOrNothingRecord(run: AgentRun): void {
  expect(run.code, run.stderr).toBe(0);
  expect(artifactText(run, 'writer')).toBe('written under *\n');
  expect(artifactText(run, 'runner')).toBe('ran\n');
  for (const step of ['nowriter', 'norunner']) expect(changedFiles(run, step)).toEqual([]);
}

/** What Wave recorded of SCOPED: the run passed, inside kept its report, outside and touch changed nothing. */
export function expectScopedRecord(run: AgentRun): void {
  expect(run.code, run.stderr).toBe(0);
  expect(artifactText(run, 'inside')).toBe('# report\n');
  // Wave records what each attempt changed: the write inside, nothing outside.
  expect(changedFiles(run, 'inside')).toContain('.agents/output/report.md');
  expect(changedFiles(run, 'outside')).toEqual([]);
  expect(changedFiles(run, 'touch')).toEqual([]);
}

/** For a describe block: the scripted model server and a loopback OTLP collector, started around its tests. */
export function modelServerAndCollector(): { server: () => ModelServer; receiver: () => OtlpReceiver } {
  let server: ModelServer | undefined;
  let receiver: OtlpReceiver | undefined;
  beforeAll(async () => {
    server = await startModelServer();
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });
  return { server: () => server!, receiver: () => receiver! };
}
