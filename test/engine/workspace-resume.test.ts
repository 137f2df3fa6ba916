import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { git, makeProject, makeRepository, registeredWorktrees, tempDir } from '../fixtures/workspace/helpers.js';

// Each call runs in its own process, as `wave run` and a later `wave resume` do (built dist/, as runWave uses).
const WORKSPACE_MODULE = pathToFileURL(join(ROOT, 'dist', 'engine', 'workspace', 'workspace.js')).href;

async function prepareInNewProcess(options: object): Promise<{ path: string; kind: string }> {
  const script = `const m = await import(${JSON.stringify(WORKSPACE_MODULE)});
const ws = await m.prepareWorkspace(${JSON.stringify(options)});
process.stdout.write(JSON.stringify(ws));`;
  const result = await execa(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
  return JSON.parse(String(result.stdout)) as { path: string; kind: string };
}

let dir: string;
let cleanup: () => Promise<void>;
let project: string;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  project = join(dir, 'project');
  await makeProject(project);
  await makeRepository(project);
});
afterEach(() => cleanup());

describe('workspaces across processes (resume)', () => {
  it('finds the worktree an earlier process made, with its uncommitted work', async () => {
    const options = {
      workspaceRoot: join(project, '.wave', 'workspaces'),
      runId: 'run-1',
      stepId: 'implement',
      projectRoot: project,
      spec: { type: 'worktree', branch: 'resumed' },
    };
    const first = await prepareInNewProcess(options);
    await writeFile(join(first.path, 'half-done.txt'), 'progress');
    const second = await prepareInNewProcess({ ...options, stepId: 'test' });
    expect(second.path).toBe(first.path);
    expect(await readFile(join(second.path, 'half-done.txt'), 'utf8')).toBe('progress');
    expect(await registeredWorktrees(project)).toHaveLength(2);
    expect(await git(second.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('resumed');
  });
});
