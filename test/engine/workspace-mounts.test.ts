import { existsSync } from 'node:fs';
import { appendFile, chmod, mkdir, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { prepareWorkspace, verifyReadonlyMounts } from '../../src/engine/workspace/workspace.js';
import { writeTree, projectPerTest } from '../fixtures/workspace/helpers.js';

let dir: string;
let project: string;
let workspaceRoot: string;
projectPerTest((paths) => ({ dir, project, workspaceRoot } = paths));

type Mounts = NonNullable<Parameters<typeof prepareWorkspace>[0]['spec']>['mount'];

function prepare(mount: Mounts, stepId = 'review') {
  return prepareWorkspace({ workspaceRoot, runId: 'run-1', stepId, projectRoot: project, spec: { mount } });
}

async function errorOf(promise: Promise<unknown>): Promise<WaveError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WaveError);
  return error as WaveError;
}

describe('mounts', () => {
  it('copies from the project folder, not from the current directory', async () => {
    const elsewhere = join(dir, 'elsewhere');
    await writeTree(elsewhere, { 'src/app.txt': 'decoy\n' });
    const before = process.cwd();
    process.chdir(elsewhere);
    try {
      const ws = await prepare([{ source: './src' }]);
      expect(await readFile(join(ws.path, 'src', 'app.txt'), 'utf8')).toBe('app source\n');
    } finally {
      process.chdir(before);
    }
  });

  it('copies exactly what the source holds except a nested .wave folder, symlinks kept as links', async () => {
    const ws = await prepare([{ source: 'src', target: 'code' }]);
    const code = join(ws.path, 'code');
    expect((await readdir(code)).sort()).toEqual(['app-link.txt', 'app.txt', 'lib']);
    expect(await readFile(join(code, 'lib', 'util.txt'), 'utf8')).toBe('util source\n');
    expect(await readlink(join(code, 'app-link.txt'))).toBe('app.txt');
  });

  it('reads a Wave target such as /code as a folder of the workspace', async () => {
    const ws = await prepare([{ source: './docs', target: '/code/docs' }]);
    expect(await readFile(join(ws.path, 'code', 'docs', 'guide.md'), 'utf8')).toBe('# Guide\n');
  });

  it('copies a single file to its base name', async () => {
    const ws = await prepare([{ source: 'docs/guide.md' }]);
    expect(await readFile(join(ws.path, 'guide.md'), 'utf8')).toBe('# Guide\n');
  });

  it('copies the whole project around the workspace root inside it, .git and node_modules included', async () => {
    await writeTree(project, { '.git/HEAD': 'ref: refs/heads/main\n' });
    await prepare([{ source: 'docs' }], 'earlier');
    const ws = await prepare([{ source: './', target: '/project' }]);
    const copy = join(ws.path, 'project');
    expect((await readdir(copy)).sort()).toEqual(['.git', 'docs', 'node_modules', 'src', 'wave.yaml']);
    expect(await readFile(join(copy, 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('export default 1;\n');
    expect(existsSync(join(copy, 'src', '.wave'))).toBe(false);
  });

  it('skips a workspace root that lies in the project outside .wave', async () => {
    const root = join(project, 'tmp', 'workspaces');
    const ws = await prepareWorkspace({
      workspaceRoot: root,
      runId: 'run-1',
      stepId: 'review',
      projectRoot: project,
      spec: { mount: [{ source: '.', target: 'project' }] },
    });
    expect(await readdir(join(ws.path, 'project', 'tmp'))).toEqual([]);
    expect(existsSync(join(ws.path, 'project', 'src', 'app.txt'))).toBe(true);
  });

  it('refuses a target that escapes the workspace and writes nothing there', async () => {
    for (const target of ['../outside', '/../../outside', '..', '/']) {
      const error = await errorOf(prepare([{ source: 'docs', target }]));
      expect(error.code).toBe('workspace_failed');
      expect(error.message).toContain(`\`${target}\``);
    }
    expect(existsSync(join(workspaceRoot, 'run-1', 'outside'))).toBe(false);
    expect(existsSync(join(workspaceRoot, 'outside'))).toBe(false);
  });

  it('reports a missing source with the path looked at', async () => {
    const error = await errorOf(prepare([{ source: 'nope' }]));
    expect(error.code).toBe('file_not_found');
    expect(error.message).toContain(join(project, 'nope'));
  });

  it('leaves a readwrite mount writable and unwatched', async () => {
    const ws = await prepare([{ source: 'src', mode: 'readwrite' }]);
    expect((await stat(join(ws.path, 'src', 'app.txt'))).mode & 0o200).toBe(0o200);
    expect(ws.readonlyMounts).toEqual([]);
  });
});

describe('readonly mounts', () => {
  async function readonlySrc() {
    const ws = await prepare([{ source: './src', target: 'code', mode: 'readonly' }]);
    expect(ws.readonlyMounts).toHaveLength(1);
    // Root ignores mode bits, so the tests below change files the way an agent running as root could.
    return { ws, code: join(ws.path, 'code') };
  }

  it('removes every write bit and passes verification when untouched', async () => {
    const { ws, code } = await readonlySrc();
    for (const path of [code, join(code, 'app.txt'), join(code, 'lib'), join(code, 'lib', 'util.txt')]) {
      expect((await stat(path)).mode & 0o222).toBe(0);
    }
    expect(await verifyReadonlyMounts(ws.readonlyMounts)).toBeUndefined();
  });

  it('detects a modified file, even one keeping its size', async () => {
    const { ws, code } = await readonlySrc();
    await chmod(join(code, 'lib', 'util.txt'), 0o644);
    await writeFile(join(code, 'lib', 'util.txt'), 'UTIL source\n');
    const error = await verifyReadonlyMounts(ws.readonlyMounts);
    expect(error?.code).toBe('mount_modified');
    expect(error?.message).toBe('readonly mount `./src` was changed by the step: `lib/util.txt` was modified');
  });

  it('detects an added file', async () => {
    const { ws, code } = await readonlySrc();
    await writeFile(join(code, 'lib', 'new.txt'), 'sneaky');
    const error = await verifyReadonlyMounts(ws.readonlyMounts);
    expect(error?.message).toContain('`lib/new.txt` was added');
  });

  it('detects a removed file', async () => {
    const { ws, code } = await readonlySrc();
    await rm(join(code, 'app.txt'));
    const error = await verifyReadonlyMounts(ws.readonlyMounts);
    expect(error?.message).toContain('`app.txt` was removed');
  });

  it('detects the whole mount removed', async () => {
    const { ws, code } = await readonlySrc();
    await rm(code, { recursive: true, force: true });
    const error = await verifyReadonlyMounts(ws.readonlyMounts);
    expect(error?.message).toContain('the mount itself');
  });

  it('copies the mount afresh when the workspace is prepared again (a resumed step), undoing a change', async () => {
    const { code } = await readonlySrc();
    await appendFile(join(code, 'app.txt'), 'changed');
    await mkdir(join(code, 'extra'));
    const resumed = await prepareWorkspace({
      workspaceRoot,
      runId: 'run-1',
      stepId: 'review',
      projectRoot: project,
      spec: { mount: [{ source: './src', target: 'code', mode: 'readonly' }] },
    });
    expect(await readFile(join(code, 'app.txt'), 'utf8')).toBe('app source\n');
    expect(existsSync(join(code, 'extra'))).toBe(false);
    expect(await verifyReadonlyMounts(resumed.readonlyMounts)).toBeUndefined();
  });
});
