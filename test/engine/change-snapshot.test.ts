import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordChangedFiles, type RecordedChanges } from '../../src/engine/workspace/change-snapshot.js';
import { resolveRecordingPolicy } from '../../src/plan/recording-policy.js';

const SECRET = 'a secret/with+url&chars';

/** A workspace with `files` (path → content), an empty attempt folder, and the recorded changes of `paths` (all created). */
async function record(files: Record<string, string>, paths: string[], setUp: (workspace: string) => void = () => undefined) {
  const root = mkdtempSync(join(tmpdir(), 'wave-snapshot-'));
  const workspace = join(root, 'work');
  const attemptDir = join(root, 'attempt');
  mkdirSync(attemptDir, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(workspace, path, '..'), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  setUp(workspace);
  const changes = paths.map((path) => ({ path, change: 'added' as const }));
  const { incomplete } = await recordChangedFiles({ workspace, attemptDir, changes, policy: resolveRecordingPolicy(undefined), secrets: [['SVC_VALUE', SECRET]] });
  const recorded = JSON.parse(readFileSync(join(attemptDir, 'workspace', 'changes.json'), 'utf8')) as RecordedChanges;
  return { incomplete, recorded, attemptDir };
}

describe('the content snapshot of an attempt', () => {
  it('stores a secret as its placeholder, and leaves out a file holding its URL-encoded form rather than keep it', async () => {
    const { incomplete, recorded, attemptDir } = await record({ 'plain.txt': `key=${SECRET}\n`, 'query.txt': `?key=${encodeURIComponent(SECRET)}\n` }, ['plain.txt', 'query.txt']);
    expect(readFileSync(join(attemptDir, 'workspace', 'files', 'plain.txt'), 'utf8')).toBe('key={{wave-secret:SVC_VALUE}}\n');
    expect(recorded.files).toEqual([expect.objectContaining({ path: 'plain.txt', secrets: ['SVC_VALUE'] })]);
    expect(recorded.omitted).toEqual([{ path: 'query.txt', reason: 'it holds the URL-encoded value of SVC_VALUE, which no placeholder stands for' }]);
    expect(incomplete).toBe(true);
  });

  it('never reads through a folder symlink that leads out of the workspace', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'wave-outside-'));
    writeFileSync(join(outside, 'private.txt'), 'not the workspace');
    const { recorded, attemptDir } = await record({}, ['out/private.txt'], (workspace) => {
      mkdirSync(workspace, { recursive: true });
      symlinkSync(outside, join(workspace, 'out'));
    });
    expect(recorded.files).toEqual([]);
    expect(recorded.omitted).toEqual([{ path: 'out/private.txt', reason: expect.stringContaining('leads outside the workspace') }]);
    expect(() => readFileSync(join(attemptDir, 'workspace', 'files', 'out', 'private.txt'))).toThrow();
  });
});
