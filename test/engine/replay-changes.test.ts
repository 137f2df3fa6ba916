import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyRecordedChanges, type RecordedChanges } from '../../src/engine/attempt/replay/recorded-changes.js';
import { promptDiff } from '../../src/engine/attempt/replay/prompt-diff.js';

/** An attempt folder holding `files` under workspace/files/, and an empty workspace beside it holding `existing`. */
function folders(files: Record<string, string>, existing: Record<string, string> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'wave-replay-'));
  const attemptDir = join(root, 'attempt-1');
  const workspace = join(root, 'workspace');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(attemptDir, 'workspace', 'files', path, '..'), { recursive: true });
    writeFileSync(join(attemptDir, 'workspace', 'files', path), content);
  }
  mkdirSync(workspace, { recursive: true });
  for (const [path, content] of Object.entries(existing)) writeFileSync(join(workspace, path), content);
  return { attemptDir, workspace };
}

describe('restoring recorded workspace changes', () => {
  it('creates and modifies files with their modes, deletes, and re-creates symlinks without following them', async () => {
    const { attemptDir, workspace } = folders({ 'src/run.sh': '#!/bin/sh\necho hi\n', 'notes.md': 'new notes\n' }, { 'notes.md': 'old\n', 'gone.txt': 'x' });
    const changes: RecordedChanges = {
      version: 1,
      files: [
        { path: 'src/run.sh', change: 'created', mode: 0o755, size: 18, sha256: '' },
        { path: 'notes.md', change: 'modified', mode: 0o644, size: 10, sha256: '' },
        { path: 'gone.txt', change: 'deleted' },
        { path: 'link', change: 'created', mode: 0o777, symlink: '../outside/target' },
      ],
    };
    expect(await applyRecordedChanges(changes, attemptDir, workspace, {})).toEqual({ unsetSecrets: [] });
    expect(readFileSync(join(workspace, 'src/run.sh'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect(statSync(join(workspace, 'src/run.sh')).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('new notes\n');
    expect(existsSync(join(workspace, 'gone.txt'))).toBe(false);
    expect(readlinkSync(join(workspace, 'link'))).toBe('../outside/target');
  });

  it('restores a secret placeholder only from its variable, and names the unset ones', async () => {
    const { attemptDir, workspace } = folders({ '.env': 'A={{wave-secret:API_TOKEN}}\nB={{wave-secret:OTHER_TOKEN}}\n' });
    const changes: RecordedChanges = { version: 1, files: [{ path: '.env', change: 'created', mode: 0o600, secrets: ['API_TOKEN', 'OTHER_TOKEN'] }] };
    const restored = await applyRecordedChanges(changes, attemptDir, workspace, { API_TOKEN: 's3cret' });
    expect(restored).toEqual({ unsetSecrets: ['OTHER_TOKEN'] });
    expect(readFileSync(join(workspace, '.env'), 'utf8')).toBe('A=s3cret\nB={{wave-secret:OTHER_TOKEN}}\n');
  });

  it('refuses a recorded path that leads out of the workspace', async () => {
    const { attemptDir, workspace } = folders({});
    const changes: RecordedChanges = { version: 1, files: [{ path: '../escape.txt', change: 'deleted' }] };
    await expect(applyRecordedChanges(changes, attemptDir, workspace, {})).rejects.toThrow('leads out of the workspace');
  });
});

describe('the prompt diff of a replay_mismatch', () => {
  it('shows the lines around the first difference, recorded as - and now as +', () => {
    expect(promptDiff('intro\nDo A.\nend', 'intro\nDo B.\nend')).toBe('@@ line 2 @@\n- Do A.\n+ Do B.');
  });
});
