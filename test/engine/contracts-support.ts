import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../../src/events.js';
import type { LoggedRequest, ModelServer } from '../support/model-server.mjs';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';

/** A project whose manifest has a shell persona, a `critic` persona on an llm adapter and a `judge` llm adapter. */
export function llmProject(server: ModelServer, prefixes: { model?: string; judge?: string }, pipeline: string): string {
  return makeProject({
    'wave.yaml': `kind: WaveManifest
metadata: { name: test }
adapters:
  shell: { type: process, binary: sh, args: ["-c", "{{prompt}}"] }
  model: { type: llm, base_url: "${server.url}${prefixes.model ?? '/s/text'}/v1", model: answer-model }
  judge: { type: llm, base_url: "${server.url}${prefixes.judge ?? '/s/text'}/v1", model: judge-model }
personas:
  shell: { adapter: shell }
  critic: { adapter: model }
runtime:
  timeouts: { process_grace_seconds: 1 }
`,
    'pipelines/p.yaml': pipeline,
  });
}

/** The events of the project's only run. */
export function runEvents(project: string): RunEvent[] {
  return readFileSync(join(runDirs(project)[0]!, 'events.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent);
}

/** A file of the project's only run, by path inside the run folder. */
export function runFile(project: string, path: string): string {
  return readFileSync(join(runDirs(project)[0]!, path), 'utf8');
}

/** The user message of a logged chat completion request. */
export function userMessage(request: LoggedRequest): string {
  return request.body.messages.find((m: { role: string }) => m.role === 'user').content;
}

/** The requests the server got under one scenario prefix (`/s/seq/<param>`). */
export function requestsTo(server: ModelServer, prefix: string): LoggedRequest[] {
  return server.requests.filter((r) => r.url?.startsWith(`${prefix}/`) && !r.note);
}

/** The review schema the tests' json_schema contracts use, as pipeline YAML. */
export const REVIEW_SCHEMA = `{ type: object, required: [verdict, findings], properties: { verdict: { enum: [approve, reject] }, findings: { type: array } } }`;
