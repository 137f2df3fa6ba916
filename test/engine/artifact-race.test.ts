import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { copyOpened, openContained } from '../../src/engine/artifacts/artifact-copy.js';
import { collectArtifacts } from '../../src/engine/artifacts/artifacts.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { tempDir } from '../fixtures/workspace/helpers.js';
import { FLIPPER } from '../support/attacks.mjs';

const HOST_FILE = readFileSync('/etc/passwd', 'utf8');
const BENIGN = 'benign artifact content\n';

/** Starts the flipping daemon in `dir` and waits until it has flipped at least once. */
async function startFlipper(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', FLIPPER, dir], { stdio: 'ignore' });
  for (let i = 0; i < 200 && !existsSync(join(dir, 'd')); i++) await new Promise((r) => setTimeout(r, 10));
  expect(existsSync(join(dir, 'd'))).toBe(true);
  return child;
}

function stop(child: ChildProcess | undefined): void {
  if (child?.exitCode === null) child.kill('SIGKILL');
}

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('a symlink flipped between the workspace and /etc while artifacts are collected', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let flipper: ChildProcess | undefined;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(async () => {
    stop(flipper);
    await cleanup();
  });

  it('never copies the host file in 200 collections, and reports a refusal as artifact_path_invalid', async () => {
    const workspace = join(dir, 'workspace');
    await mkdir(join(workspace, 'folder'), { recursive: true });
    await writeFile(join(workspace, 'folder', 'passwd'), BENIGN);
    flipper = await startFlipper(workspace);
    const outcomes = { copied: 0, refused: 0, leaked: 0, other: [] as string[] };
    const collectOnce = async (run: number) => {
      const destDir = join(dir, 'runs', String(run));
      try {
        // A file through the flipped folder, and the flipped folder itself, in turns.
        const def = run % 2 === 0 ? { name: 'file', path: 'd/passwd' } : { name: 'folder', path: 'd' };
        const { missing } = await collectArtifacts({ workspace, defs: [def], destDir });
        if (missing.length) outcomes.other.push(`missing ${missing.map((m) => m.name).join(',')}`);
        else outcomes.copied++;
      } catch (error) {
        if (error instanceof WaveError && error.code === 'artifact_path_invalid') outcomes.refused++;
        else outcomes.other.push(String(error));
      }
      // Whatever the outcome, the run folder holds the workspace's file or nothing: never a byte of /etc.
      const stored = filesUnder(destDir).map((file) => readFileSync(file, 'utf8'));
      if (stored.some((content) => content !== BENIGN)) outcomes.leaked++;
      if (stored.some((content) => content === HOST_FILE)) outcomes.other.push(`run ${run}: /etc/passwd copied`);
      await rm(destDir, { recursive: true, force: true });
    };
    // Four collections at a time, as a run's parallel steps would, so the file system calls of each are spread out.
    for (let run = 0; run < 200; run += 4) await Promise.all([0, 1, 2, 3].map((i) => collectOnce(run + i)));
    stop(flipper);
    console.log(`symlink race, 200 collections: ${outcomes.copied} copied, ${outcomes.refused} refused, ${outcomes.leaked} leaked`);
    expect(outcomes.leaked).toBe(0);
    expect(outcomes.other).toEqual([]);
    expect(outcomes.copied + outcomes.refused).toBe(200);
    expect(outcomes.refused).toBeGreaterThan(0);
  });

  it('copies from the descriptor it opened: a folder swapped for a symlink to /etc afterwards changes nothing', async () => {
    const workspace = join(dir, 'workspace');
    await mkdir(join(workspace, 'd'), { recursive: true });
    await writeFile(join(workspace, 'd', 'passwd'), BENIGN);
    const file = await openContained(workspace, 'd/passwd', { artifact: 'file', path: 'd/passwd' });
    const folder = await openContained(workspace, 'd', { artifact: 'folder', path: 'd' });
    // Between the open and the copy, the agent replaces the folder by a symlink to /etc.
    await rename(join(workspace, 'd'), join(workspace, 'moved'));
    await symlink('/etc', join(workspace, 'd'));
    try {
      await copyOpened(file!, join(dir, 'out', 'file'));
      await copyOpened(folder!, join(dir, 'out', 'folder'));
    } finally {
      await file!.close();
      await folder!.close();
    }
    expect(readFileSync(join(dir, 'out', 'file'), 'utf8')).toBe(BENIGN);
    expect(readdirSync(join(dir, 'out', 'folder'))).toEqual(['passwd']);
    expect(readFileSync(join(dir, 'out', 'folder', 'passwd'), 'utf8')).toBe(BENIGN);
    // Opened now, the path is refused: the symlink leads out.
    const refusal = await openContained(workspace, 'd/passwd', { artifact: 'file', path: 'd/passwd' }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(WaveError);
    expect((refusal as WaveError).code).toBe('artifact_path_invalid');
    expect((refusal as WaveError).message).toContain('(to /etc)');
  });

  it('refuses a real `wave run`: the step fails with artifact_path_invalid and nothing of /etc is stored', async () => {
    const project = makeProject({
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - id: leak
    exec: { type: command, source: "ln -s /etc d" }
    output_artifacts: [{ name: passwd, path: d/passwd }]
`,
    });
    const result = await runWave(['run', 'p', '--output', 'json'], { cwd: project });
    expect(result.code).toBe(1);
    const failure = latestRun(project).steps.leak!.failure!;
    expect(failure.class).toBe('artifact_path_invalid');
    expect(failure.message).toContain('d/passwd');
    const runDir = join(project, '.wave', 'runs', latestRun(project).id);
    for (const file of filesUnder(runDir)) expect(readFileSync(file, 'utf8'), file).not.toContain(HOST_FILE);
    expect(result.stdout).toContain('"class":"artifact_path_invalid"');
  });

  it('never stores the host file from real `wave run`s while the daemon flips the workspace symlink', async () => {
    const ready = join(dir, 'ready');
    const project = makeProject({
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - id: race
    exec:
      type: command
      source: "mkdir -p folder && printf 'benign artifact content\\\\n' > folder/passwd && pwd > ${ready}.tmp && mv ${ready}.tmp ${ready} && sleep 0.5"
    output_artifacts: [{ name: passwd, path: d/passwd }]
`,
    });
    const classes: string[] = [];
    for (let run = 0; run < 3; run++) {
      await rm(ready, { force: true });
      const wave = runWave(['run', 'p', '--output', 'json'], { cwd: project });
      for (let i = 0; i < 1000 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 10));
      flipper = await startFlipper(readFileSync(ready, 'utf8').trim());
      const result = await wave;
      stop(flipper);
      const record = latestRun(project);
      classes.push(record.steps.race!.failure?.class ?? 'completed');
      expect([0, 1]).toContain(result.code);
      const runDir = join(project, '.wave', 'runs', record.id);
      for (const file of filesUnder(join(runDir, 'artifacts'))) expect(readFileSync(file, 'utf8'), file).toBe(BENIGN);
      expect(result.stdout).not.toContain('root:x:0:0');
    }
    console.log(`symlink race, real runs: ${classes.join(', ')}`);
    // A refusal is artifact_path_invalid (it was reported as artifact_missing), a copy is the workspace's file.
    for (const cls of classes) expect(['completed', 'artifact_path_invalid']).toContain(cls);
  });
});
