import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { manifestWith } from './agents.js';

// plugin-cli writes, deletes and links files as its prompt says; Wave drives it through its plugin module.
const PLUGIN_MODULE = fileURLToPath(new URL('../fixtures/plugin-cli/adapter.mjs', import.meta.url));
// A value the run knows as a secret only because runtime.sandbox.secret_env declares its variable.
const SECRET = 'recorded-secret-value-7781';

function manifest(recording = ''): string {
  const runtime = `  sandbox: { env_passthrough: [REC_VALUE], secret_env: [REC_VALUE] }\n${recording}`;
  return manifestWith([`  mycli: { module: "${PLUGIN_MODULE}", model: scripted-1, env: { PLUGIN_CLI_TOKEN: token-1 } }`], '  dev: { adapter: mycli }', runtime);
}

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: work
    persona: dev
    workspace: { mount: [{ source: seed }] }
    exec: { type: prompt, source: "Change them. WRITE:seed/keep.txt WRITE_ENV:made/secret.txt=REC_VALUE DELETE:seed/gone.txt LINK:made/out-link=/etc/hostname" }
`;

interface Recorded {
  version: number;
  files: Array<{ path: string; change: string; mode?: number; size?: number; sha256?: string; secrets?: string[]; symlink?: string }>;
  omitted: Array<{ path: string; reason: string }>;
}

/** Runs the pipeline with the secret in the environment and reads the first attempt's folder. */
async function recordedRun(recording = '') {
  const project = makeProject({ 'wave.yaml': manifest(recording), 'pipelines/p.yaml': PIPELINE, 'seed/keep.txt': 'before\n', 'seed/gone.txt': 'to delete\n' });
  const result = await runWave(['run', 'p', '--output', 'json'], { cwd: project, env: { REC_VALUE: SECRET }, timeout: 120_000 });
  const folder = join(project, '.wave', 'runs', latestRun(project).id, 'steps', 'work', 'attempt-1');
  const attempt = JSON.parse(readFileSync(join(folder, 'attempt.json'), 'utf8')) as Record<string, unknown>;
  const changesFile = join(folder, 'workspace', 'changes.json');
  const changes = existsSync(changesFile) ? (JSON.parse(readFileSync(changesFile, 'utf8')) as Recorded) : undefined;
  return { result, folder, attempt, changes };
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('recording an agent attempt: the files it changed, in full', () => {
  it('lists each created, modified and deleted file with mode, size and hash, keeps the content, hides the secret and never follows a symlink', async () => {
    const { result, folder, attempt, changes } = await recordedRun();
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(attempt).toMatchObject({ recording: 1, signal: null, permissions: { allowedTools: [], deniedTools: [] } });
    expect(attempt.recordingIncomplete).toBeUndefined();
    const stored = (path: string) => readFileSync(join(folder, 'workspace', 'files', path));
    const secretText = `value={{wave-secret:REC_VALUE}}\n`;
    expect(changes).toEqual({
      version: 1,
      files: [
        { path: 'made/out-link', change: 'created', mode: expect.any(Number), symlink: '/etc/hostname' },
        { path: 'made/secret.txt', change: 'created', mode: expect.any(Number), size: secretText.length, sha256: sha256(secretText), secrets: ['REC_VALUE'] },
        { path: 'seed/gone.txt', change: 'deleted' },
        { path: 'seed/keep.txt', change: 'modified', mode: expect.any(Number), size: 22, sha256: sha256('written by plugin-cli\n'), secrets: [] },
      ],
      omitted: [],
    });
    // The file's permission bits, as the process's umask left them: read and write for its owner at least.
    for (const file of changes!.files.filter((f) => f.sha256)) expect(file.mode! & 0o600).toBe(0o600);
    expect(stored('seed/keep.txt').toString()).toBe('written by plugin-cli\n');
    expect(stored('made/secret.txt').toString()).toBe(secretText);
    expect(existsSync(join(folder, 'workspace', 'files', 'made', 'out-link'))).toBe(false);
    expect(existsSync(join(folder, 'workspace', 'files', 'seed', 'gone.txt'))).toBe(false);
    expect(lstatSync(join(folder, 'workspace', 'files', 'made')).isDirectory()).toBe(true);
  });

  it('leaves out a file past runtime.recording.max_file_mb and marks the attempt recordingIncomplete', async () => {
    // 0.00002 MiB is 20 bytes: keep.txt's 22 bytes are past it, secret.txt's 33 too.
    const { result, attempt, changes } = await recordedRun('  recording: { max_file_mb: 0.00002 }\n');
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(attempt.recordingIncomplete).toBe(true);
    expect(changes!.omitted).toEqual([
      { path: 'made/secret.txt', reason: expect.stringContaining('past runtime.recording.max_file_mb') },
      { path: 'seed/keep.txt', reason: expect.stringContaining('22 bytes, past runtime.recording.max_file_mb') },
    ]);
    expect(changes!.files.map((f) => f.path)).toEqual(['made/out-link', 'seed/gone.txt']);
  });

  it('leaves out the files past runtime.recording.max_attempt_mb once the attempt has kept that much', async () => {
    // 0.00004 MiB is 41 bytes: secret.txt (33 bytes) is kept, keep.txt (22 more) is past the attempt's cap.
    const { attempt, changes } = await recordedRun('  recording: { max_attempt_mb: 0.00004 }\n');
    expect(attempt.recordingIncomplete).toBe(true);
    expect(changes!.omitted).toEqual([{ path: 'seed/keep.txt', reason: expect.stringContaining('past runtime.recording.max_attempt_mb') }]);
  });

  it('keeps no content with runtime.recording.enabled: false', async () => {
    const { result, folder, attempt } = await recordedRun('  recording: { enabled: false }\n');
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(attempt.recording).toBe(1);
    expect(existsSync(join(folder, 'workspace'))).toBe(false);
    expect(readFileSync(join(folder, 'changes.diff'), 'utf8')).toContain('seed/keep.txt');
  });

  it('keeps no content for a command step, which a replay runs live; its diff is kept as ever', async () => {
    const commandPipeline = PIPELINE.replace(
      /persona: dev\n.*\n.*exec: \{ type: prompt, source: ".*" \}/,
      'workspace: { mount: [{ source: seed }] }\n    exec: { type: command, source: "echo changed > seed/keep.txt" }',
    );
    expect(commandPipeline).toContain('type: command');
    const project = makeProject({ 'wave.yaml': manifest(), 'pipelines/p.yaml': commandPipeline, 'seed/keep.txt': 'before\n' });
    const result = await runWave(['run', 'p', '--output', 'json'], { cwd: project, timeout: 120_000 });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    const folder = join(project, '.wave', 'runs', latestRun(project).id, 'steps', 'work', 'attempt-1');
    expect(readFileSync(join(folder, 'changes.diff'), 'utf8')).toContain('seed/keep.txt');
    expect(existsSync(join(folder, 'workspace'))).toBe(false);
  });
});
