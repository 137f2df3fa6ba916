import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { collectArtifacts, type ArtifactDef } from '../../src/engine/artifacts/artifacts.js';
import { tempDir, writeTree } from '../fixtures/workspace/helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let workspace: string;
let destDir: string;
let outside: string;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  workspace = join(dir, 'workspace');
  destDir = join(dir, 'run', 'artifacts', 'step');
  outside = join(dir, 'outside');
  await writeTree(outside, { 'secret.txt': 'do not copy\n' });
  await writeTree(workspace, {
    'out/report.md': '# Report\n',
    'out/data.json': '{"words": 3}\n',
    'parts/one.txt': 'one\n',
    'parts/deep/two.txt': 'two two\n',
  });
});
afterEach(() => cleanup());

function collect(defs: ArtifactDef[], stdoutPath?: string) {
  return collectArtifacts({ workspace, defs, destDir, stdoutPath });
}

async function refusal(defs: ArtifactDef[]): Promise<WaveError> {
  const error = await collect(defs).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WaveError);
  expect((error as WaveError).code).toBe('artifact_path_invalid');
  return error as WaveError;
}

async function savedFiles(): Promise<string[]> {
  return existsSync(destDir) ? (await readdir(destDir)).sort() : [];
}

describe('collecting artifacts from files', () => {
  it('copies a file under the artifact name, keeping its extension', async () => {
    const { saved, missing } = await collect([{ name: 'report', path: 'out/report.md', type: 'markdown' }]);
    expect(missing).toEqual([]);
    expect(saved).toEqual([{ name: 'report', path: join(destDir, 'report.md'), bytes: 9, type: 'markdown' }]);
    expect(await readFile(join(destDir, 'report.md'), 'utf8')).toBe('# Report\n');
  });

  it('does not repeat an extension the name already has, and uses the name as path by default', async () => {
    await writeFile(join(workspace, 'summary.json'), '{}');
    const { saved } = await collect([{ name: 'data.json', path: 'out/data.json' }, { name: 'summary.json' }]);
    expect(saved.map((a) => a.path)).toEqual([join(destDir, 'data.json'), join(destDir, 'summary.json')]);
  });

  it('copies a folder recursively and counts its bytes', async () => {
    const { saved } = await collect([{ name: 'parts', path: 'parts/' }]);
    expect(saved).toEqual([{ name: 'parts', path: join(destDir, 'parts'), bytes: 12 }]);
    expect(await readFile(join(destDir, 'parts', 'deep', 'two.txt'), 'utf8')).toBe('two two\n');
  });

  it('follows a symlink that stays inside the workspace', async () => {
    await symlink('out/report.md', join(workspace, 'latest.md'));
    await symlink('../out', join(workspace, 'parts', 'out-link'));
    const { saved } = await collect([
      { name: 'latest', path: 'latest.md' },
      { name: 'parts', path: 'parts' },
    ]);
    expect(saved.map((a) => a.bytes)).toEqual([9, 12 + 9 + 13]);
    expect(await readFile(join(destDir, 'latest.md'), 'utf8')).toBe('# Report\n');
    expect(await readFile(join(destDir, 'parts', 'out-link', 'data.json'), 'utf8')).toBe('{"words": 3}\n');
  });

  it('replaces what an earlier attempt saved', async () => {
    await collect([{ name: 'parts', path: 'parts' }]);
    await writeTree(workspace, { 'parts/one.txt': 'ONE\n', 'parts/three.txt': '3\n' });
    await rm(join(workspace, 'parts', 'deep'), { recursive: true });
    await collect([{ name: 'parts', path: 'parts' }]);
    expect((await readdir(join(destDir, 'parts'))).sort()).toEqual(['one.txt', 'three.txt']);
    expect(await readFile(join(destDir, 'parts', 'one.txt'), 'utf8')).toBe('ONE\n');
  });
});

describe('collecting stdout', () => {
  it("copies the step's stdout file, named by the artifact and its type", async () => {
    const stdoutPath = join(dir, 'run', 'steps', 'step', 'attempt-1', 'stdout');
    await writeTree(dir, { 'run/steps/step/attempt-1/stdout': '{"ok": true}\n' });
    const { saved } = await collect(
      [
        { name: 'result', source: 'stdout', type: 'json' },
        { name: 'log', source: 'stdout' },
      ],
      stdoutPath,
    );
    expect(saved).toEqual([
      { name: 'result', path: join(destDir, 'result.json'), bytes: 13, type: 'json' },
      { name: 'log', path: join(destDir, 'log'), bytes: 13 },
    ]);
    expect(await readFile(join(destDir, 'result.json'), 'utf8')).toBe('{"ok": true}\n');
  });

  it('copies a large stdout file byte for byte', async () => {
    const stdoutPath = join(dir, 'stdout');
    const out = createWriteStream(stdoutPath);
    const hash = createHash('sha256');
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 48; i++) {
      chunk.fill(i % 251);
      hash.update(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const { saved } = await collect([{ name: 'big', source: 'stdout' }], stdoutPath);
    expect(saved[0]!.bytes).toBe(48 * 1024 * 1024);
    const copied = createHash('sha256')
      .update(await readFile(join(destDir, 'big')))
      .digest('hex');
    expect(copied).toBe(hash.digest('hex'));
  });
});

describe('missing artifacts', () => {
  it('reports a missing artifact as required by default, and an optional one as not required', async () => {
    const { saved, missing } = await collect([
      { name: 'report', path: 'out/nothing.md' },
      { name: 'extra', path: 'out/extra.txt', required: false },
      { name: 'summary', path: 'out/report.md', required: true },
    ]);
    expect(saved.map((a) => a.name)).toEqual(['summary']);
    expect(missing).toEqual([
      { name: 'report', lookedAt: join(workspace, 'out', 'nothing.md'), required: true },
      { name: 'extra', lookedAt: join(workspace, 'out', 'extra.txt'), required: false },
    ]);
  });

  it('reports a stdout artifact missing when no stdout was recorded', async () => {
    const { missing } = await collect([{ name: 'log', source: 'stdout' }], join(dir, 'no-such-stdout'));
    expect(missing).toEqual([{ name: 'log', lookedAt: join(dir, 'no-such-stdout'), required: true }]);
  });

  it('counts a broken symlink inside the workspace as missing', async () => {
    await symlink('out/never.md', join(workspace, 'broken.md'));
    const { missing } = await collect([{ name: 'broken', path: 'broken.md' }]);
    expect(missing.map((m) => m.name)).toEqual(['broken']);
  });
});

describe('paths that escape the workspace', () => {
  it('refuses ../../etc/passwd and copies nothing, not even the valid artifacts beside it', async () => {
    const error = await refusal([
      { name: 'report', path: 'out/report.md' },
      { name: 'passwd', path: '../../etc/passwd' },
    ]);
    expect(error.message).toContain('`../../etc/passwd`');
    expect(error.message).toContain('`passwd`');
    expect(await savedFiles()).toEqual([]);
  });

  it('refuses an absolute path', async () => {
    await refusal([{ name: 'passwd', path: '/etc/passwd' }]);
    await refusal([{ name: 'secret', path: join(outside, 'secret.txt') }]);
    expect(await savedFiles()).toEqual([]);
  });

  it('refuses a symlink whose real path leaves the workspace, also through a linked folder', async () => {
    await symlink(join(outside, 'secret.txt'), join(workspace, 'out', 'leak.txt'));
    await symlink(outside, join(workspace, 'linked'));
    await refusal([{ name: 'leak', path: 'out/leak.txt' }]);
    await refusal([{ name: 'secret', path: 'linked/secret.txt' }]);
    await refusal([{ name: 'passwd', path: 'linked/../../../etc/passwd' }]);
    expect(await savedFiles()).toEqual([]);
  });

  it('refuses a dangling symlink that points outside', async () => {
    await symlink(join(outside, 'not-yet.txt'), join(workspace, 'later.txt'));
    await refusal([{ name: 'later', path: 'later.txt' }]);
  });

  it('refuses a folder holding a symlink out, and undoes the copies made before it', async () => {
    await symlink(join(outside, 'secret.txt'), join(workspace, 'parts', 'deep', 'leak.txt'));
    const error = await refusal([
      { name: 'report', path: 'out/report.md' },
      { name: 'parts', path: 'parts' },
    ]);
    expect(error.message).toContain('`parts/deep/leak.txt`');
    expect(await savedFiles()).toEqual([]);
  });

  it('refuses a symlink loop inside a folder', async () => {
    await symlink('..', join(workspace, 'parts', 'deep', 'up'));
    const error = await refusal([{ name: 'parts', path: 'parts' }]);
    expect(error.message).toContain('symlink loop');
    expect(await savedFiles()).toEqual([]);
  });

  it('refuses an artifact name that is not a plain file name', async () => {
    await refusal([{ name: '../report', path: 'out/report.md' }]);
    await mkdir(destDir, { recursive: true });
    expect(await savedFiles()).toEqual([]);
  });
});
