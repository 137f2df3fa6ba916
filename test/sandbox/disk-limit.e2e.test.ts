import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, sandboxRuntime, type TestBackend } from '../support/sandbox.js';

const projects: string[] = [];
afterAll(() => projects.forEach((project) => rmSync(project, { recursive: true, force: true })));

/** A project whose one step runs `command` in the backend with a disk limit of 512 MB. */
function diskProject(backend: TestBackend, command: string): string {
  const manifest = `kind: WaveManifest
metadata: { name: disk }
runtime:
  timeouts: { process_grace_seconds: 1 }
${sandboxRuntime(backend, '    limits: { disk_mb: 512 }\n')}`;
  const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: step
    exec: { type: command, source: ${JSON.stringify(command)} }
`;
  const project = makeProject({ 'wave.yaml': manifest, 'pipelines/p.yaml': pipeline });
  projects.push(project);
  return project;
}

function stepStdout(project: string): string {
  return readFileSync(join(project, '.wave', 'runs', latestRun(project).id, 'steps', 'step', 'attempt-1', 'stdout'), 'utf8');
}

describe.each(['bubblewrap', 'docker'] as const)('%s sandbox: the disk limit', (backend) => {
  describe.skipIf(!backendAvailable(backend))(`${backend}`, () => {
    it.each([
      ['/tmp', '/tmp'],
      ['HOME', '"$HOME"'],
      ['the workspace', '.'],
    ])('stops a step writing 2 GiB into %s with disk_mb: 512, naming the limit', async (_where, folder) => {
      const project = diskProject(backend, `head -c 2147483648 /dev/zero > ${folder}/big && echo wrote-it-all`);
      const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
      expect(run.code, run.stderr + run.stdout).toBe(1);
      const failure = latestRun(project).steps.step!.failure!;
      expect(failure.class).toBe('limit_exceeded');
      expect(failure.message).toMatch(/^disk limit of 512 MB reached: the step added \d+ MB to its workspace, HOME and \/tmp \(runtime\.sandbox\.limits\.disk_mb\)$/);
      expect(failure.hint).toContain('runtime.sandbox.limits');
      // Stopped while it wrote, not measured once it was done.
      expect(stepStdout(project)).not.toContain('wrote-it-all');
    });

    it('lets a step write within the limit, and keeps /tmp to the attempt', async () => {
      const project = diskProject(backend, 'head -c 104857600 /dev/zero > /tmp/part && head -c 104857600 /dev/zero > part && ls /tmp && echo within');
      const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
      expect(run.code, run.stderr + run.stdout).toBe(0);
      // /tmp holds the step's file beside the mount points of the host paths bound below /tmp (the project's, Wave's own).
      expect(stepStdout(project).split('\n')).toContain('part');
      expect(stepStdout(project).endsWith('within\n')).toBe(true);
      expect(existsSync(join(project, '.wave', 'runs', latestRun(project).id, 'steps', 'step', 'attempt-1', 'tmp'))).toBe(false);
    });
  });
});
