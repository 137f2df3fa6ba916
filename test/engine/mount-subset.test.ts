import { readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { readSubsetList, type SubsetCopy } from '../../src/engine/workspace/mount-subset.js';
import { prepareWorkspace, verifyReadonlyMounts } from '../../src/engine/workspace/workspace.js';
import { projectPerTest, writeTree } from '../fixtures/workspace/helpers.js';

let dir: string;
let project: string;
let workspaceRoot: string;
projectPerTest((paths) => ({ dir, project, workspaceRoot } = paths));

/** Every file under `root`, relative and sorted. */
async function filesUnder(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else found.push(relative(root, path));
    }
  };
  await walk(root);
  return found.sort();
}

/** Mounts the project (`./` at `code`) narrowed to `entries`; returns the mount's folder and what the copy reported. */
async function mountSubset(entries: unknown[], mode?: 'readonly') {
  let copy: SubsetCopy | undefined;
  const ws = await prepareWorkspace({
    workspaceRoot,
    runId: 'run-1',
    stepId: 'scan',
    projectRoot: project,
    spec: { mount: [{ source: './', target: '/code', subset_from: 'x.y.z', ...(mode ? { mode } : {}) }] },
    subsets: [entries],
    onSubset: (_, c) => (copy = c),
  });
  return { code: join(ws.path, 'code'), copy: copy!, ws };
}

describe('subset_from: the mount narrowed to the files an artifact lists', () => {
  it('copies only the listed files, at their places, and readonly still holds', async () => {
    const { code, copy, ws } = await mountSubset(['src/app.txt', 'docs/guide.md', './src/lib//util.txt', 'src/app.txt'], 'readonly');
    expect(await filesUnder(code)).toEqual(['docs/guide.md', 'src/app.txt', 'src/lib/util.txt']);
    expect(await readFile(join(code, 'src', 'lib', 'util.txt'), 'utf8')).toBe('util source\n');
    expect(copy).toEqual({ copied: 3, skipped: [] });
    expect((await stat(join(code, 'src', 'app.txt'))).mode & 0o222).toBe(0);
    expect(await verifyReadonlyMounts(ws.readonlyMounts)).toBeUndefined();
  });

  it('an empty list mounts an empty folder', async () => {
    const { code, copy } = await mountSubset([]);
    expect(await readdir(code)).toEqual([]);
    expect(copy).toEqual({ copied: 0, skipped: [] });
  });

  describe('entries are untrusted: none leads out of the mount source', () => {
    it('`..` in any position', async () => {
      await writeFile(join(dir, 'secret.txt'), 'outside the project\n');
      const { code, copy } = await mountSubset(['../secret.txt', 'src/../../secret.txt', 'src/..', '..']);
      expect(await filesUnder(code)).toEqual([]);
      expect(copy.skipped.map((s) => s.reason)).toEqual(Array(4).fill('climbs out with `..`'));
    });

    it('absolute paths, even ones inside the source', async () => {
      const { code, copy } = await mountSubset(['/etc/hostname', join(project, 'src', 'app.txt')]);
      expect(await filesUnder(code)).toEqual([]);
      expect(copy.skipped.map((s) => s.reason)).toEqual(['an absolute path', 'an absolute path']);
    });

    it('a symlinked file or folder leading out, and a symlink inside the source (refused as Wave refuses symlinks)', async () => {
      await writeFile(join(dir, 'secret.txt'), 'outside the project\n');
      await symlink(join(dir, 'secret.txt'), join(project, 'leak.txt'));
      await symlink(dir, join(project, 'outdir'));
      await symlink('src', join(project, 'src-link'));
      const { code, copy } = await mountSubset(['leak.txt', 'outdir/secret.txt', 'src/app-link.txt', 'src-link/app.txt']);
      expect(await filesUnder(code)).toEqual([]);
      expect(copy.skipped).toEqual([
        { path: 'leak.txt', reason: 'a symlink leading out of the mount source' },
        { path: 'outdir/secret.txt', reason: 'a symlink leading out of the mount source' },
        { path: 'src/app-link.txt', reason: 'a symlink' },
        { path: 'src-link/app.txt', reason: 'a symlink' },
      ]);
    });

    it("Wave's state folder and the workspace root, whatever the list says", async () => {
      await writeTree(join(workspaceRoot, 'other-run', 'step'), { 'secret.txt': 'another step\n' });
      const { code, copy } = await mountSubset(['.wave/runs/old/run.json', 'src/.wave/state.json', '.wave/workspaces/other-run/step/secret.txt']);
      expect(await filesUnder(code)).toEqual([]);
      expect(copy.skipped.map((s) => s.reason)).toEqual(Array(3).fill("inside Wave's state folder .wave"));
    });

    it('a workspace root elsewhere in the project is never copied', async () => {
      const root = join(project, 'work');
      await writeTree(join(root, 'run-0', 'step'), { 'secret.txt': 'another step\n' });
      let copy: SubsetCopy | undefined;
      const ws = await prepareWorkspace({
        workspaceRoot: root,
        runId: 'run-1',
        stepId: 'scan',
        projectRoot: project,
        spec: { mount: [{ source: './', target: 'code', subset_from: 'x.y.z' }] },
        subsets: [['work/run-0/step/secret.txt', 'src/app.txt']],
        onSubset: (_, c) => (copy = c),
      });
      expect(await filesUnder(join(ws.path, 'code'))).toEqual(['src/app.txt']);
      expect(copy!.skipped).toEqual([{ path: 'work/run-0/step/secret.txt', reason: 'inside the workspace root' }]);
    });

    it('entries that are no paths, folders, missing files and the source itself are skipped with their reason', async () => {
      const { code, copy } = await mountSubset([42, null, '', 'a\0b', 'src', 'nope.txt', '.', 'src/app.txt']);
      expect(await filesUnder(code)).toEqual(['src/app.txt']);
      expect(copy.skipped).toEqual([
        { path: '42', reason: 'not a path' },
        { path: 'null', reason: 'not a path' },
        { path: '', reason: 'not a path' },
        { path: 'a\0b', reason: 'holds a NUL character' },
        { path: 'src', reason: 'a folder, not a file' },
        { path: 'nope.txt', reason: 'not found in the mount source' },
        { path: '.', reason: 'names the source itself, not a file' },
      ]);
    });
  });

  it('refuses a mount of a single file, which has nothing to pick from', async () => {
    const error = await prepareWorkspace({
      workspaceRoot,
      runId: 'run-1',
      stepId: 'scan',
      projectRoot: project,
      spec: { mount: [{ source: 'src/app.txt', subset_from: 'x.y.z' }] },
      subsets: [['app.txt']],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaveError);
    expect((error as WaveError).code).toBe('workspace_failed');
  });
});

describe('readSubsetList: the list an artifact holds at a JSON path', () => {
  /** Writes an artifact and a locate function that finds it as step `fetch`, artifact `ctx`. */
  async function artifact(text: string) {
    const file = join(dir, 'ctx.json');
    await writeFile(file, text);
    return (step: string, name: string) => (step === 'fetch' && name === 'ctx' ? file : undefined);
  }

  it('follows keys and [N] indexes to the list', async () => {
    const locate = await artifact('{"pr": {"batches": [{"files": ["a"]}, {"files": ["b", "c"]}]}, "changed_files": ["x.go"]}');
    expect(await readSubsetList('fetch.ctx.changed_files', locate)).toEqual({ files: ['x.go'] });
    expect(await readSubsetList('fetch.ctx.pr.batches[1].files', locate)).toEqual({ files: ['b', 'c'] });
  });

  it("falls back to the whole source when the artifact is not in this run (Wave's parent-pipeline artifact)", async () => {
    const locate = await artifact('{}');
    expect(await readSubsetList('fetch-pr.pr-context.changed_files', locate)).toEqual({
      fallback: 'artifact `pr-context` of step `fetch-pr` is not in this run, so the whole source is mounted',
    });
    expect(await readSubsetList('fetch.ctx.files', () => join(dir, 'gone.json'))).toMatchObject({ fallback: expect.any(String) });
  });

  it.each([
    ['not json', 'fetch.ctx.files', 'names an artifact that is not JSON'],
    ['{"other": []}', 'fetch.ctx.files', 'finds no key `files` in its artifact'],
    ['{"files": "a.txt"}', 'fetch.ctx.files', 'leads to a string, not a list of paths'],
    ['{"files": [["a"]]}', 'fetch.ctx.files[3]', 'finds no item [3] at `files`'],
    ['{}', 'fetch.ctx', 'is not `<step>.<artifact>.<json-path>`'],
  ])('fails the step with workspace_failed when the artifact holds no such list: %s at %s', async (text, subsetFrom, problem) => {
    const locate = await artifact(text);
    const error = await readSubsetList(subsetFrom, locate).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaveError);
    expect((error as WaveError).code).toBe('workspace_failed');
    expect((error as WaveError).message).toContain(problem);
    expect((error as WaveError).hint).toContain('{"changed_files": ["src/a.ts"]}');
  });
});
