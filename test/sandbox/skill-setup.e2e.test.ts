import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepository } from '../fixtures/workspace/helpers.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, sandboxRuntime, type TestBackend } from '../support/sandbox.js';

function manifest(backend: TestBackend | 'none', extra = ''): string {
  return `kind: WaveManifest
metadata: { name: skills }
runtime:
  timeouts: { process_grace_seconds: 1 }
${sandboxRuntime(backend, '    env_passthrough: [PROJECT_FILE]\n')}${extra}`;
}

// The installer writes a program into its HOME's .local/bin, as `uv tool install` does, and notes what it could see.
const INSTALL = [
  'mkdir -p "$HOME/.local/bin"',
  `printf '#!/bin/sh\\necho skilltool-ran\\n' > "$HOME/.local/bin/skilltool"`,
  'chmod +x "$HOME/.local/bin/skilltool"',
  'echo installed >> "$HOME/installs"',
  'if test -e "$PROJECT_FILE"; then echo host > "$HOME/where"; else echo sandbox > "$HOME/where"; fi',
].join(' && ');

/** A pipeline requiring skill `tool` (installed by INSTALL, its init writing into the workspace) and maybe an optional `extra`. */
function pipeline(steps: string, extraSkill = ''): string {
  return `kind: WavePipeline
metadata: { name: p }
requires:
  skills:
    tool:
      check: skilltool
      install: ${JSON.stringify(INSTALL)}
      init: "skilltool > initialized.txt && echo once >> init-count.txt"
${extraSkill}steps:
${steps}`;
}

const DIRECTORY_STEPS = `  - id: first
    exec: { type: command, source: "grep -q skilltool-ran initialized.txt && skilltool > ran.txt" }
  - id: second
    dependencies: [first]
    exec: { type: command, source: "grep -q skilltool-ran initialized.txt" }
`;

describe('requires.skills install and init without the opt-in', () => {
  it('refuses a missing required skill, naming --install-skills and runtime.skills.allow_install', async () => {
    const project = makeProject({ 'wave.yaml': manifest('none'), 'pipelines/p.yaml': pipeline(DIRECTORY_STEPS) });
    const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('requires skill `tool`, which is missing');
    expect(run.stderr).toContain('--install-skills');
    expect(run.stderr).toContain('runtime.skills.allow_install');
    expect(existsSync(join(project, '.wave', 'skills'))).toBe(false);
  });

  it('with the opt-in but no sandbox, refuses: nothing of a skill runs on the bare host', async () => {
    const project = makeProject({ 'wave.yaml': manifest('none'), 'pipelines/p.yaml': pipeline(DIRECTORY_STEPS) });
    const run = await runWave(['run', 'p', '--install-skills', '--output', 'text'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('its install runs only in a sandbox');
    expect(run.stderr).toContain('runtime.sandbox.backend');
    expect(existsSync(join(project, '.wave', 'skills', 'tool', 'home', 'where'))).toBe(false);
  });
});

/** The skill installed inside the backend's sandbox, its init run in each new workspace, its program found by the steps. */
async function installsInside(backend: TestBackend): Promise<void> {
  const project = makeProject({ 'wave.yaml': manifest(backend), 'pipelines/p.yaml': pipeline(DIRECTORY_STEPS) });
  const env = { PROJECT_FILE: join(project, 'wave.yaml') };
  const run = await runWave(['run', 'p', '--install-skills', '--output', 'text', '--keep-workspaces'], { cwd: project, env });
  expect(run.code, run.stderr + run.stdout).toBe(0);
  const home = join(project, '.wave', 'skills', 'tool', 'home');
  // The project folder is not visible inside: the installer ran in the sandbox, not on the host.
  expect(readFileSync(join(home, 'where'), 'utf8').trim()).toBe('sandbox');
  const record = latestRun(project);
  expect(record.options.installSkills).toBe(true);
  for (const id of ['first', 'second']) expect(readFileSync(join(record.steps[id]!.workspace!, 'init-count.txt'), 'utf8')).toBe('once\n');
  expect(readFileSync(join(record.steps.first!.workspace!, 'ran.txt'), 'utf8')).toBe('skilltool-ran\n');
  // A second run finds the installed skill in its folder and does not install it again.
  const again = await runWave(['run', 'p', '--install-skills', '--output', 'text'], { cwd: project, env: { PROJECT_FILE: '/nonexistent' } });
  expect(again.code, again.stderr).toBe(0);
  expect(readFileSync(join(home, 'installs'), 'utf8')).toBe('installed\n');
}

describe.skipIf(!backendAvailable('docker'))('requires.skills install and init in docker', () => {
  it('installs the skill inside the container, then runs its init in each new workspace; steps find its program', () => installsInside('docker'), 180_000);
});

describe.skipIf(!backendAvailable('bubblewrap'))('requires.skills install and init in bubblewrap', () => {
  it('installs the skill inside the sandbox, then runs its init in each new workspace; steps find its program', () => installsInside('bubblewrap'));

  it('runs init once in a worktree that several steps share, and the manifest opt-in counts as the flag', async () => {
    const steps = `  - id: first
    workspace: { type: worktree, branch: skill-branch }
    exec: { type: command, source: "test -f initialized.txt" }
  - id: second
    dependencies: [first]
    workspace: { type: worktree, branch: skill-branch }
    exec: { type: command, source: "test \\"$(cat init-count.txt)\\" = once" }
`;
    const project = makeProject({ 'wave.yaml': manifest('bubblewrap', '  skills: { allow_install: true }\n'), 'pipelines/p.yaml': pipeline(steps), '.gitignore': '.wave/\n' });
    await makeRepository(project);
    const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project, env: { PROJECT_FILE: '/nonexistent' } });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(latestRun(project).steps.second!.status).toBe('completed');
  });

  it("runs init in each worker's workspace of a step with concurrency (each worker is a child run keeping the requires)", async () => {
    const steps = '  - id: many\n    concurrency: 2\n    exec: { type: command, source: "test -f initialized.txt && skilltool" }\n';
    const project = makeProject({ 'wave.yaml': manifest('bubblewrap'), 'pipelines/p.yaml': pipeline(steps) });
    const run = await runWave(['run', 'p', '--install-skills', '--output', 'text'], { cwd: project, env: { PROJECT_FILE: '/nonexistent' } });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(readFileSync(join(project, '.wave', 'skills', 'tool', 'home', 'installs'), 'utf8')).toBe('installed\n');
  });

  it('stops an install past runtime.timeouts.skill_install_seconds and says so', async () => {
    const slow = pipeline(DIRECTORY_STEPS).replace(JSON.stringify(INSTALL), '"sleep 30"');
    const project = makeProject({
      'wave.yaml': manifest('bubblewrap').replace('process_grace_seconds: 1', 'process_grace_seconds: 1, skill_install_seconds: 1'),
      'pipelines/p.yaml': slow,
    });
    const started = Date.now();
    const run = await runWave(['run', 'p', '--install-skills', '--output', 'text'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('`sleep 30` did not finish within 1 s (runtime.timeouts.skill_install_seconds)');
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  it('skips an optional skill whose install failed, and its init with it (Wave still runs that init)', async () => {
    const optional = `    extra:
      check: "exit 3"
      install: "exit 1"
      init: "touch extra-initialized.txt"
      optional: true
`;
    const steps = '  - id: only\n    exec: { type: command, source: "test -f initialized.txt && test ! -e extra-initialized.txt" }\n';
    const project = makeProject({ 'wave.yaml': manifest('bubblewrap'), 'pipelines/p.yaml': pipeline(steps, optional) });
    const run = await runWave(['run', 'p', '--install-skills', '--output', 'text'], { cwd: project });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stderr).toContain('warning: optional skill `extra` is missing (install failed: `exit 1` exited 1)');
  });
});
