import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { prepareWorkspace, removeRunWorkspaces } from '../../src/engine/workspace/workspace.js';
import { projectPerTest } from '../fixtures/workspace/helpers.js';

let project: string;
let workspaceRoot: string;
projectPerTest((paths) => ({ project, workspaceRoot } = paths));

describe('directory workspaces', () => {
  it('gives each step a fresh empty folder under <root>/<run-id>/<step-id>', async () => {
    const a = await prepareWorkspace({ workspaceRoot, runId: 'run-1', stepId: 'split', projectRoot: project });
    const b = await prepareWorkspace({ workspaceRoot, runId: 'run-1', stepId: 'count', projectRoot: project });
    expect(a).toEqual({ path: join(workspaceRoot, 'run-1', 'split'), kind: 'directory', readonlyMounts: [], created: true });
    expect(b.path).toBe(join(workspaceRoot, 'run-1', 'count'));
    expect(await readdir(a.path)).toEqual([]);
    expect(await readdir(b.path)).toEqual([]);
  });

  it('empties a folder left by an earlier attempt', async () => {
    const first = await prepareWorkspace({ workspaceRoot, runId: 'run-1', stepId: 'split', projectRoot: project });
    await writeFile(join(first.path, 'leftover.txt'), 'old');
    const again = await prepareWorkspace({ workspaceRoot, runId: 'run-1', stepId: 'split', projectRoot: project });
    expect(again.path).toBe(first.path);
    expect(await readdir(again.path)).toEqual([]);
  });

  it('refuses run and step ids that are not one folder name', async () => {
    for (const [runId, stepId] of [
      ['..', 'a'],
      ['run-1', '../escape'],
      ['a/b', 'c'],
    ] as const) {
      const error = await prepareWorkspace({ workspaceRoot, runId, stepId, projectRoot: project }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WaveError);
      expect((error as WaveError).code).toBe('invalid_argument');
    }
    expect(existsSync(join(workspaceRoot, 'escape'))).toBe(false);
  });

  it("removes one run's workspaces and leaves the others", async () => {
    const mine = await prepareWorkspace({ workspaceRoot, runId: 'run-1', stepId: 'split', projectRoot: project });
    const other = await prepareWorkspace({ workspaceRoot, runId: 'run-2', stepId: 'split', projectRoot: project });
    await writeFile(join(mine.path, 'out.txt'), 'x');
    await removeRunWorkspaces({ workspaceRoot, runId: 'run-1', projectRoot: project });
    expect(existsSync(join(workspaceRoot, 'run-1'))).toBe(false);
    expect(existsSync(other.path)).toBe(true);
  });
});
