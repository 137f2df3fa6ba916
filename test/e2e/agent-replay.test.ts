import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { replayedEventTypes } from '../support/recording.js';
import { latestRun } from '../support/runs.js';
import { artifactText, claudeManifest, cliAvailable, param, runAgentPipeline, runEvents, startModelServer, WRITE_THEN_READ, WRITER_AND_READER } from './agents.js';

const available = cliAvailable('claude');

describe.skipIf(!available)('claude: a recorded Claude Code run replayed with the server stopped and the CLI out of reach', () => {
  it('completes with the same artifacts, answers, verdicts and sequence of event types', async () => {
    const content = 'line one from step one\n';
    const server = await startModelServer();
    const manifest = claudeManifest(
      { writer: `${server.url}/s/write/notes.txt/${param(content)}`, reader: `${server.url}/s/shell/${param('cat .wave/artifacts/notes')}` },
      WRITER_AND_READER,
    );
    const pipeline = WRITE_THEN_READ.replace(
      '    exec: { type: prompt, source: "Print {{ artifacts.notes }}." }',
      '    exec: { type: prompt, source: "Print {{ artifacts.notes }}." }\n    output_artifacts: [{ name: out, source: stdout }]',
    );
    const recorded = await runAgentPipeline(manifest, pipeline, { 'personas/writer.md': 'You write notes.\n' }).finally(() => server.close());
    expect(recorded.code, recorded.stderr).toBe(0);
    const runDir = join(recorded.project, '.wave', 'runs', recorded.record.id);
    // The run's own recording: the write step kept the file Claude Code wrote, in full.
    expect(readFileSync(join(runDir, 'steps', 'write', 'attempt-1', 'workspace', 'files', 'notes.txt'), 'utf8')).toBe(content);
    // No Claude Code to start: the adapters now name a binary that does not exist.
    writeFileSync(join(recorded.project, 'wave.yaml'), readFileSync(join(recorded.project, 'wave.yaml'), 'utf8').replaceAll('binary: claude', 'binary: /nonexistent/claude'));
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
    expect(artifactText(replayed, 'read')).toContain('line one from step one');
  });
});
