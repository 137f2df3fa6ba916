import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runWave } from '../support/cli.js';
import { replayedEventTypes } from '../support/recording.js';
import { latestRun } from '../support/runs.js';
import { agentManifest, artifactText, claudeManifest, cliAvailable, param, runAgentPipeline, runEvents, startModelServer, WRITE_THEN_READ, WRITER_AND_READER } from './agents.js';

// OpenCode starts slowly (~3 s a run): a record and a replay take up to a minute on a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

const require = createRequire(import.meta.url);

/** Each agent CLI: its manifest, and what its base URLs end with (the API path it appends itself, or not). */
const CLIS = [
  { cli: 'claude', manifest: claudeManifest, api: '', npm: '@anthropic-ai/claude-code' },
  { cli: 'codex', manifest: agentManifest('codex', 'gpt-5.5'), api: '/v1', npm: '@openai/codex' },
  { cli: 'opencode', manifest: agentManifest('opencode', 'scripted', ', api_key_env: OC_KEY, env: { OC_KEY: fake-key }'), api: '/v1', npm: 'opencode-ai' },
  { cli: 'gemini', manifest: agentManifest('gemini', 'gemini-2.5-pro'), api: '', npm: '@google/gemini-cli' },
] as const;

/** The version of an agent CLI's npm package as installed. */
function installedVersion(npm: string): string {
  return (JSON.parse(readFileSync(require.resolve(`${npm}/package.json`), 'utf8')) as { version: string }).version;
}

describe.each(CLIS)('$cli: a recorded run replayed with the server stopped and the CLI out of reach', ({ cli, manifest: manifestOf, api, npm }) => {
  it.skipIf(!cliAvailable(cli))('completes with the same artifacts, answers, verdicts and sequence of event types', async () => {
    const content = `line one from ${cli}\n`;
    const server = await startModelServer();
    const manifest = manifestOf(
      { writer: `${server.url}/s/write/notes.txt/${param(content)}${api}`, reader: `${server.url}/s/shell/${param('cat .wave/artifacts/notes')}${api}` },
      WRITER_AND_READER,
    );
    const pipeline = WRITE_THEN_READ.replace(
      '    exec: { type: prompt, source: "Print {{ artifacts.notes }}." }',
      '    exec: { type: prompt, source: "Print {{ artifacts.notes }}." }\n    output_artifacts: [{ name: out, source: stdout }]',
    );
    const recorded = await runAgentPipeline(manifest, pipeline, { 'personas/writer.md': 'You write notes.\n' }).finally(() => server.close());
    expect(recorded.code, recorded.stderr).toBe(0);
    const runDir = join(recorded.project, '.wave', 'runs', recorded.record.id);
    // The run's own recording: the write step kept the file the CLI wrote, in full.
    expect(readFileSync(join(runDir, 'steps', 'write', 'attempt-1', 'workspace', 'files', 'notes.txt'), 'utf8')).toBe(content);
    // …and which CLI made it, read from the package that ships the binary.
    const attempt = JSON.parse(readFileSync(join(runDir, 'steps', 'write', 'attempt-1', 'attempt.json'), 'utf8')) as { cliVersion?: string };
    expect(attempt.cliVersion).toBe(`${npm}@${installedVersion(npm)}`);
    // No CLI to start: the adapters now name a binary that does not exist.
    const manifestFile = join(recorded.project, 'wave.yaml');
    writeFileSync(manifestFile, readFileSync(manifestFile, 'utf8').replaceAll(`binary: ${cli}`, `binary: /nonexistent/${cli}`));
    const replay = await runWave(['replay', recorded.record.id, '--output', 'json'], { cwd: recorded.project, timeout: 120_000 });
    expect(replay.code, replay.stderr + JSON.stringify(Object.values(latestRun(recorded.project).steps).map((s) => s.failure))).toBe(0);
    const record = latestRun(recorded.project);
    const replayed = { project: recorded.project, record, events: runEvents(recorded.project, record), code: replay.code, stdout: replay.stdout, stderr: replay.stderr };
    expect(record.options.replayOf).toBe(runDir);
    expect(replayedEventTypes(replayed)).toEqual(replayedEventTypes(recorded));
    expect(replayed.events.filter((e) => e.type === 'replay_matched').map((e) => e.stepId)).toEqual(['write', 'read']);
    const answers = (run: typeof recorded) => run.events.filter((e) => e.type === 'attempt_finished').map((e) => [e.stepId, e.passed, e.text, e.tokens]);
    expect(answers(replayed)).toEqual(answers(recorded));
    expect(artifactText(replayed, 'read')).toBe(artifactText(recorded, 'read'));
    expect(artifactText(replayed, 'read')).toContain(`line one from ${cli}`);
  });
});
