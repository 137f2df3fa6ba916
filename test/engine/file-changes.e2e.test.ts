import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { makeRepository } from '../fixtures/workspace/helpers.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

const MARKER = '<!-- written by wave: the persona prompt of this step -->';

// One step in a plain folder (its files mounted), one in a worktree of the project; each creates, modifies and deletes.
const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: folder
    workspace: { mount: [{ source: data, mode: readwrite }] }
    exec:
      type: command
      source: |
        printf 'new\\nfile\\n' > data/new.txt
        printf 'one\\nTWO\\nthree\\nfour\\n' > data/edit.txt
        rm data/gone.txt
        printf 'a\\000b' > data/blob.bin
        printf '${MARKER}\\nx\\n' > AGENTS.md
    output_artifacts: [{ name: notes, path: data/new.txt }]
  - id: tree
    dependencies: [folder]
    workspace: { type: worktree, branch: changes/tree }
    memory: { inject_artifacts: [{ step: folder, artifact: notes }] }
    exec:
      type: command
      source: |
        printf 'added\\n' > data/fresh.txt
        git add data/fresh.txt
        git -c user.name=t -c user.email=t@example.invalid commit -q -m work
        printf 'one\\ntwo\\n' > data/edit.txt
        rm data/gone.txt
`;

const FOLDER_CHANGES = [
  { path: 'data/blob.bin', change: 'added', binary: true },
  { path: 'data/edit.txt', change: 'modified', added: 2, removed: 1 },
  { path: 'data/gone.txt', change: 'deleted', added: 0, removed: 2 },
  { path: 'data/new.txt', change: 'added', added: 2, removed: 0 },
];

// The committed file counts too: the changes are measured against the worktree as the attempt found it.
const TREE_CHANGES = [
  { path: 'data/edit.txt', change: 'modified', added: 0, removed: 1 },
  { path: 'data/fresh.txt', change: 'added', added: 1, removed: 0 },
  { path: 'data/gone.txt', change: 'deleted', added: 0, removed: 2 },
];

describe('the files each step created, modified and deleted', () => {
  let project: string;
  let run: Awaited<ReturnType<typeof runWave>>;
  let record: RunRecord;
  let events: RunEvent[];

  beforeAll(async () => {
    project = makeProject({
      'pipelines/p.yaml': PIPELINE,
      'data/edit.txt': 'one\ntwo\nthree\n',
      'data/gone.txt': 'bye\nnow\n',
      'data/keep.txt': 'same\n',
      '.gitignore': '.wave/\n',
    });
    await makeRepository(project);
    run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    record = latestRun(project);
    const runDir = join(project, '.wave', 'runs', record.id);
    events = readFileSync(join(runDir, 'events.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
  }, 120_000);

  it("are in run.json per step, Wave's own files (an injected artifact, a marked AGENTS.md) left out", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(record.steps.folder!.filesChanged).toEqual(FOLDER_CHANGES);
    expect(record.steps.tree!.filesChanged).toEqual(TREE_CHANGES);
  });

  it('are a file_change event each', () => {
    const changes = events.filter((e) => e.type === 'file_change');
    expect(changes).toEqual([
      ...FOLDER_CHANGES.map((c) => expect.objectContaining({ stepId: 'folder', attempt: 1, ...c })),
      ...TREE_CHANGES.map((c) => expect.objectContaining({ stepId: 'tree', attempt: 1, ...c })),
    ]);
  });

  it('are listed in the final summary and by wave status', async () => {
    for (const text of [run.stdout, (await runWave(['status', record.id], { cwd: project })).stdout]) {
      expect(text).toContain('      M data/edit.txt  +2 -1\n');
      expect(text).toContain('      A data/blob.bin  binary\n');
      expect(text).toContain('      D data/gone.txt  +0 -2\n');
      expect(text).toContain('      A data/fresh.txt  +1 -0\n');
      expect(text).not.toContain('AGENTS.md');
    }
    expect(run.stdout).toContain('folder file A data/new.txt  +2 -0');
  });

  it('wave diff prints the unified diff of a plain folder step', async () => {
    const diff = await runWave(['diff', record.id, '--step', 'folder'], { cwd: project });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('--- a/data/edit.txt\n+++ b/data/edit.txt\n');
    expect(diff.stdout).toContain(' one\n-two\n+TWO\n three\n+four\n');
    expect(diff.stdout).toContain('--- a/data/gone.txt\n+++ /dev/null\n');
    expect(diff.stdout).toContain('--- /dev/null\n+++ b/data/new.txt\n');
    expect(diff.stdout).toMatch(/Binary files \/dev\/null and b\/data\/blob.bin differ/);
    expect(diff.stdout).not.toContain('keep.txt');
    expect(diff.stdout).not.toContain('AGENTS.md');
  });

  it('wave diff prints the unified diff of a worktree step, commits included', async () => {
    const diff = await runWave(['diff', record.id, '--step', 'tree'], { cwd: project });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain(' one\n two\n-three\n');
    expect(diff.stdout).toContain('+++ b/data/fresh.txt\n@@ -0,0 +1 @@\n+added\n');
    expect(diff.stdout).toContain('--- a/data/gone.txt\n+++ /dev/null\n');
    expect(diff.stdout).not.toContain('.wave');
  });

  it('wave diff refuses a step the run does not have, with exit code 2', async () => {
    const diff = await runWave(['diff', record.id, '--step', 'nope'], { cwd: project });
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain('has no step `nope`');
  });
});

describe('the files a worktree step changed, in a project that does not ignore .wave', () => {
  it('leave out the injected artifacts git would otherwise see as new files', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: make
    exec: { type: command, source: "echo made > made.txt" }
    output_artifacts: [{ name: made, path: made.txt }]
  - id: tree
    dependencies: [make]
    workspace: { type: worktree, branch: changes/plain }
    memory: { inject_artifacts: [{ step: make, artifact: made }] }
    exec: { type: command, source: "printf 'one\\\\n' > one.txt" }
`;
    const project = makeProject({ 'pipelines/p.yaml': pipeline, 'readme.txt': 'hi\n' });
    await makeRepository(project);
    const run = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    const record = latestRun(project);
    expect(record.steps.tree!.filesChanged).toEqual([{ path: 'one.txt', change: 'added', added: 1, removed: 0 }]);
    expect(record.steps.make!.filesChanged).toEqual([{ path: 'made.txt', change: 'added', added: 1, removed: 0 }]);
  }, 60_000);
});
