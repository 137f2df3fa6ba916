import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { startModelServer, type ModelServer } from './agents.js';

const KEY = 'sk-recorded-key-0123456789abcdef';
const ANSWER = 'A scripted answer sent in several events of the stream.';

let server: ModelServer;
beforeAll(async () => void (server = await startModelServer()));
afterAll(async () => server.close());

/** Runs one llm step on the scripted server (with `recording` added to runtime) and reads its attempt folder. */
async function llmRun(recording = '') {
  const manifest = `kind: WaveManifest
metadata: { name: t }
adapters:
  model: { type: llm, base_url: "${server.url}/s/text/${encodeURIComponent(ANSWER)}/v1", model: answer-model, api_key_env: REC_LLM_KEY }
personas:
  writer: { adapter: model, system_prompt_file: writer.md }
runtime:
  timeouts: { process_grace_seconds: 1 }
${recording}`;
  const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: ask, persona: writer, exec: { type: prompt, source: "Say something." } }
`;
  const project = makeProject({ 'wave.yaml': manifest, 'pipelines/p.yaml': pipeline, 'writer.md': 'You write.\n' });
  const result = await runWave(['run', 'p', '--output', 'json'], { cwd: project, env: { REC_LLM_KEY: KEY }, timeout: 60_000 });
  const folder = join(project, '.wave', 'runs', latestRun(project).id, 'steps', 'ask', 'attempt-1');
  return { result, folder };
}

describe('recording an llm attempt: its HTTP exchange in http.ndjson', () => {
  it('keeps the request (no key), the response, each chunk with its time, and the end', async () => {
    const { result, folder } = await llmRun();
    expect(result.code, result.stderr + result.stdout).toBe(0);
    const text = readFileSync(join(folder, 'http.ndjson'), 'utf8');
    expect(text).not.toContain(KEY);
    expect(text.toLowerCase()).not.toContain('authorization');
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { t: number; kind: string; [key: string]: unknown });
    expect(lines.map((l) => l.kind)).toEqual(['request', 'response', ...lines.slice(2, -1).map(() => 'chunk'), 'end']);
    // The server's writes may arrive as one read or several: one chunk line per read.
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines[0]).toMatchObject({ kind: 'request', url: expect.stringMatching(/\/chat\/completions$/), body: { model: 'answer-model', stream: true } });
    expect((lines[0]!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'system', content: expect.stringContaining('You write.') },
      { role: 'user', content: 'Say something.' },
    ]);
    expect(lines[1]).toMatchObject({ kind: 'response', status: 200, headers: { 'content-type': 'text/event-stream' } });
    // Times count from the attempt's start and never go back; the chunks, joined, are the stream the server sent.
    const times = lines.map((l) => l.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const stream = lines
      .filter((l) => l.kind === 'chunk')
      .map((l) => l.data as string)
      .join('');
    expect(stream).toContain('data: [DONE]');
    expect(stream).toContain('"content":"A scripted answe"');
  });

  it('keeps no http.ndjson with runtime.recording.enabled: false', async () => {
    const { result, folder } = await llmRun('  recording: { enabled: false }\n');
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(existsSync(join(folder, 'attempt.json'))).toBe(true);
    expect(existsSync(join(folder, 'http.ndjson'))).toBe(false);
  });
});
