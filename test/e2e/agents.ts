import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_PACKAGES, resolveBinary } from '../../src/adapters/binary.js';
import type { RunRecord } from '../../src/state/run-record.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

/** One request the scripted model server received. */
export interface LoggedRequest {
  method?: string;
  url?: string;
  scenario: string;
  path?: string;
  requestIndex: number;
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
  const message = `${binary} is not installed: npm install --save-dev ${CLI_PACKAGES[binary] ?? binary}`;
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
