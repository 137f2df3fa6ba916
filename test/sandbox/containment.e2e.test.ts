import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { runWave, WAVE_BIN } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun, runDirs } from '../support/runs.js';
import { backendAvailable, marker, processesWith, sandboxRuntime, type TestBackend } from '../support/sandbox.js';
import { waitFor } from '../support/wait.js';

const planted: string[] = [];
afterAll(() => planted.forEach((file) => rmSync(file, { force: true })));

function manifest(backend: TestBackend | 'none', sandboxExtra = ''): string {
  return `kind: WaveManifest
metadata: { name: containment }
runtime:
  timeouts: { process_grace_seconds: 1 }
${sandboxRuntime(backend, sandboxExtra)}`;
}

/** A one-step pipeline running `command` in the sandbox, with optional extra step keys (indented 4). */
function commandStep(command: string, extra = ''): string {
  return `kind: WavePipeline
metadata: { name: p }
steps:
  - id: step
    exec: { type: command, source: ${JSON.stringify(command)} }
${extra}`;
}

function stepStdout(project: string): string {
  const record = latestRun(project);
  return readFileSync(join(project, '.wave', 'runs', record.id, 'steps', 'step', 'attempt-1', 'stdout'), 'utf8');
}

describe.each(['bubblewrap', 'docker'] as const)('%s sandbox: containment', (backend) => {
  describe.skipIf(!backendAvailable(backend))(`${backend}`, () => {
    it('writes land in the workspace owned by the user; HOME, /tmp and the environment of Wave stay out of reach', async () => {
      const secret = `planted-${randomBytes(8).toString('hex')}`;
      const homeFile = join(homedir(), `wave-planted-${randomBytes(4).toString('hex')}.txt`);
      const tmpFile = join(tmpdir(), `wave-planted-${randomBytes(4).toString('hex')}.txt`);
      const escapes = [join(tmpdir(), `wave-escape-${randomBytes(4).toString('hex')}`), join(homedir(), `wave-escape-${randomBytes(4).toString('hex')}`)];
      for (const file of [homeFile, tmpFile]) writeFileSync(file, secret);
      planted.push(homeFile, tmpFile, ...escapes);
      const command = [
        'echo written > out.txt',
        `cat ${homeFile} ${tmpFile} 2>&1`,
        ...escapes.map((file) => `echo escaped > ${file} 2>&1`),
        'echo "env: $(env | tr "\\n" " ")"',
        'echo "caps: $(grep CapEff /proc/self/status)"',
        'echo "uid: $(id -u)"',
      ].join('; ');
      const project = makeProject({ 'wave.yaml': manifest(backend), 'pipelines/p.yaml': commandStep(command) });
      const run = await runWave(['run', 'p', '--output', 'text', '--keep-workspaces'], { cwd: project, env: { WAVE_TEST_SECRET: secret } });
      expect(run.code, run.stderr + run.stdout).toBe(0);
      const stdout = stepStdout(project);
      const record = latestRun(project);
      const written = join(record.steps.step!.workspace!, 'out.txt');
      expect(readFileSync(written, 'utf8')).toBe('written\n');
      expect(statSync(written).uid).toBe(process.getuid!());
      // Neither planted file was readable, and neither write outside the workspace left anything on the host.
      expect(stdout).not.toContain(secret);
      expect(stdout).toMatch(/No such file or directory/);
      for (const file of escapes) expect(existsSync(file)).toBe(false);
      expect(stdout).toContain('caps: CapEff:\t0000000000000000');
      expect(stdout).toContain(`HOME=${join(project, '.wave', 'runs', record.id, 'steps', 'step', 'attempt-1', 'home')}`);
    });

    it('stops a memory hog at the memory limit with a failure that names it', async () => {
      const hog = `node -e "const a = []; for (;;) a.push(Buffer.alloc(16 * 1024 * 1024, 1))"`;
      const project = makeProject({ 'wave.yaml': manifest(backend, '    limits: { memory_mb: 96 }\n'), 'pipelines/p.yaml': commandStep(hog) });
      const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
      expect(run.code).toBe(1);
      const failure = latestRun(project).steps.step!.failure!;
      expect(failure.class).toBe('limit_exceeded');
      expect(failure.message).toContain('memory limit of 96 MB reached');
      expect(failure.hint).toContain('runtime.sandbox.limits');
    });

    it('stops a step that forks past the process limit, and names the limit', async () => {
      // bash retries a failed fork for a while, as a runaway program would keep trying: docker's counter is read while the step runs.
      const forks = `bash -c 'for i in $(seq 1 40); do sleep 5 & done; wait'`;
      const project = makeProject({ 'wave.yaml': manifest(backend, '    limits: { pids: 16 }\n'), 'pipelines/p.yaml': commandStep(forks) });
      await runWave(['run', 'p', '--output', 'text'], { cwd: project });
      const failure = latestRun(project).steps.step!.failure!;
      expect(failure.class).toBe('limit_exceeded');
      expect(failure.message).toContain('process limit of 16 reached');
    });

    it('holds a busy step to its CPU share', async () => {
      // Spins until it has used 400 ms of CPU and says how long that took: a quota can only stretch the wall time, and
      // a busy machine stretches both runs alike, so the bounds hold however loaded the machine is.
      const spin = `node -e "const start = Date.now(); const used = () => { const u = process.cpuUsage(); return u.user + u.system; }; while (used() < 400000); console.log('wall-ms', Date.now() - start)"`;
      const wallMs = async (cpus: string) => {
        const project = makeProject({ 'wave.yaml': manifest(backend, `    limits: { cpus: ${cpus} }\n`), 'pipelines/p.yaml': commandStep(spin) });
        const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
        expect(run.code, run.stderr).toBe(0);
        return Number(/wall-ms (\d+)/.exec(stepStdout(project))![1]);
      };
      const limited = await wallMs('0.2');
      // 400 ms of CPU at a fifth of a core takes about two seconds; with two cores, well under half a second.
      expect(limited).toBeGreaterThan(800);
      expect(await wallMs('2')).toBeLessThan(limited);
    });

    it("commits on a git worktree workspace from inside, while the repository's hooks and config stay read-only", async () => {
      const pipeline = commandStep(
        'echo change > file.txt && git add file.txt && git -c user.email=w@example.com -c user.name=wave commit -qm "from the sandbox" && echo committed; echo hook > $(git rev-parse --git-common-dir)/hooks/post-commit 2>&1; echo "hook: $?"',
        '    workspace: { type: worktree, branch: sandboxed }\n',
      );
      const project = makeProject({ 'wave.yaml': manifest(backend), 'pipelines/p.yaml': pipeline });
      const git = (...args: string[]) => execFileSync('git', ['-C', project, ...args], { encoding: 'utf8' });
      git('init', '-q');
      git('-c', 'user.email=w@example.com', '-c', 'user.name=wave', 'commit', '-q', '--allow-empty', '-m', 'start');
      const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
      expect(run.code, run.stderr + run.stdout).toBe(0);
      const stdout = stepStdout(project);
      expect(stdout).toContain('committed');
      expect(stdout).not.toContain('hook: 0');
      expect(git('log', '--format=%s', 'sandboxed').split('\n')[0]).toBe('from the sandbox');
      expect(existsSync(join(project, '.git', 'hooks', 'post-commit'))).toBe(false);
    });

    it('after kill -9 of wave run, resume clears what the killed run left and finishes', async () => {
      const nap = `3.${randomBytes(2).readUInt16BE(0)}`;
      const project = makeProject({ 'wave.yaml': manifest(backend), 'pipelines/p.yaml': commandStep(`sleep ${nap}; echo finished`) });
      const wave = execa(process.execPath, [WAVE_BIN, 'run', 'p', '--output', 'quiet'], { cwd: project, reject: false });
      await waitFor(() => processesWith(`sleep ${nap}`).length > 0, 'the step to start');
      const runId = await waitFor(() => runDirs(project)[0], 'the run folder');
      wave.kill('SIGKILL');
      await wave;
      if (backend === 'docker') {
        // The daemon keeps a container running after its client dies: only resume can clear it.
        expect(execFileSync('docker', ['ps', '-q', '--filter', `label=wave.run=${runId.split('/').pop()}`], { encoding: 'utf8' }).trim()).not.toBe('');
      }
      const resumed = await runWave(['resume', latestRun(project).id, '--output', 'text'], { cwd: project });
      expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
      expect(latestRun(project).steps.step!.status).toBe('completed');
      expect(execFileSync('docker', ['ps', '-aq', '--filter', `label=wave.run=${latestRun(project).id}`], { encoding: 'utf8' }).trim()).toBe('');
      const left = processesWith(`sleep ${nap}`);
      expect(
        left,
        execFileSync('ps', ['-eo', 'pid,ppid,stat,lstart,args'], { encoding: 'utf8' })
          .split('\n')
          .filter((l) => l.includes(nap) || /bwrap|wave\.cjs/.test(l))
          .join('\n'),
      ).toEqual([]);
    });
  });
});

// Outside a sandbox this is best effort (processes are found by the step's identity in their environment); inside one,
// the sandbox's own namespaces end them.
describe.each(['none', 'bubblewrap', 'docker'] as const)('%s: processes a step leaves behind', (backend) => {
  describe.skipIf(backend !== 'none' && !backendAvailable(backend))(`${backend}`, () => {
    it.each([
      ['succeeds', 'true', '', 'completed'],
      ['times out', 'sleep 60', '    timeout_minutes: 0.05\n', 'failed'],
    ])('ends a setsid daemon and a double-forked child when the step %s', async (_label, tail, extra, status) => {
      const [daemon, forked] = [marker(), marker()];
      const command = `setsid sleep ${daemon} > /dev/null 2>&1 < /dev/null & (sleep ${forked} > /dev/null 2>&1 < /dev/null &) ; sleep 0.3; ${tail}`;
      const project = makeProject({ 'wave.yaml': manifest(backend), 'pipelines/p.yaml': commandStep(command, extra) });
      const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
      expect(latestRun(project).steps.step!.status, run.stdout + run.stderr).toBe(status);
      expect(processesWith(`sleep ${daemon}`)).toEqual([]);
      expect(processesWith(`sleep ${forked}`)).toEqual([]);
    });

    it('ends a setsid daemon and a double-forked child when the run is cancelled', async () => {
      const [daemon, forked] = [marker(), marker()];
      const command = `setsid sleep ${daemon} > /dev/null 2>&1 < /dev/null & (sleep ${forked} > /dev/null 2>&1 < /dev/null &) ; sleep 60`;
      const project = makeProject({ 'wave.yaml': manifest(backend), 'pipelines/p.yaml': commandStep(command) });
      const wave = execa(process.execPath, [WAVE_BIN, 'run', 'p', '--output', 'text'], { cwd: project, reject: false, env: { NO_COLOR: '1' } });
      await waitFor(() => processesWith(`sleep ${forked}`).length > 0, 'the step to start its daemons');
      wave.kill('SIGINT');
      const result = await wave;
      expect(result.exitCode).toBe(130);
      expect(latestRun(project).steps.step!.status).toBe('cancelled');
      expect(processesWith(`sleep ${daemon}`)).toEqual([]);
      expect(processesWith(`sleep ${forked}`)).toEqual([]);
    });
  });
});

describe.skipIf(!backendAvailable('bubblewrap'))("Wave's runtime.sandbox.enabled: true", () => {
  it('runs the step in bubblewrap', async () => {
    const wave = `kind: WaveManifest\nmetadata: { name: enabled }\nruntime:\n  sandbox: { enabled: true }\n`;
    const project = makeProject({ 'wave.yaml': wave, 'pipelines/p.yaml': commandStep('echo "init: $(cat /proc/1/comm)"') });
    const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    // Pid 1 of the step's pid namespace is bubblewrap's own init.
    expect(stepStdout(project)).toContain('init: bwrap');
  });
});

describe('sandbox_unavailable before any step starts', () => {
  const unusable = async (backend: TestBackend, sandboxExtra: string, env: Record<string, string>, expected: RegExp) => {
    const project = makeProject({ 'wave.yaml': manifest(backend, sandboxExtra), 'pipelines/p.yaml': commandStep('echo ran > ran.txt') });
    const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project, env });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('sandbox_unavailable');
    expect(run.stderr).toMatch(expected);
    // Refused before a run folder, a workspace or a step existed: nothing ran unsandboxed.
    expect(runDirs(project)).toEqual([]);
    expect(existsSync(join(project, '.wave', 'workspaces'))).toBe(false);
  };

  it('bubblewrap missing', () => unusable('bubblewrap', '', { PATH: '/nonexistent' }, /hint: Install it \(apt-get install bubblewrap/));
  it('docker daemon down', () => unusable('docker', '', { DOCKER_HOST: `unix://${join(tmpdir(), 'wave-no-docker.sock')}` }, /hint: Start the Docker daemon/));
  it.skipIf(!backendAvailable('docker'))('docker image missing', () =>
    unusable('docker', '    docker_image: wave-sandbox:missing-image\n', {}, /hint: Build it with `wave sandbox image --tag wave-sandbox:missing-image`/),
  );
});
