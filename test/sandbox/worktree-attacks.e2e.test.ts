import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeManifest, cliAvailable, param, startModelServer, type ModelServer } from '../e2e/agents.js';
import { runWave } from '../support/cli.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, sandboxRuntime, type TestBackend } from '../support/sandbox.js';

// What a worktree step does to reach the host through git: each test stages one attack from inside a command step.
const planted: string[] = [];
afterAll(() => planted.forEach((file) => rmSync(file, { force: true })));

const IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };

/** A project whose repository has main (a.txt) and tag v1, with this manifest and a one-step pipeline: the step's own keys (indented 4) after a worktree on branch `agent`. */
function repositoryProject(manifest: string, stepKeys: (project: string) => string): { project: string; git: (...args: string[]) => string } {
  const project = makeProject({ 'pipelines/.keep': '', 'wave.yaml': manifest, 'a.txt': 'original\n' });
  writeFileSync(
    join(project, 'pipelines', 'p.yaml'),
    `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - id: step\n    workspace: { type: worktree, branch: agent }\n${stepKeys(project)}`,
  );
  const git = (...args: string[]) => execFileSync('git', ['-C', project, ...args], { encoding: 'utf8', env: { ...process.env, ...IDENTITY } }).trim();
  git('init', '-q', '-b', 'main');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'start');
  git('tag', 'v1');
  return { project, git };
}

/** repositoryProject with a command step running `command` in `backend`. */
function worktreeProject(backend: TestBackend | 'none', command: (project: string) => string): { project: string; git: (...args: string[]) => string } {
  const manifest = `kind: WaveManifest\nmetadata: { name: attack }\nruntime:\n  timeouts: { process_grace_seconds: 1 }\n${sandboxRuntime(backend)}`;
  return repositoryProject(manifest, (project) => `    exec: { type: command, source: ${JSON.stringify(command(project))} }\n`);
}

const hostFile = (name: string) => {
  const path = join(tmpdir(), `wave-${name}-${randomBytes(6).toString('hex')}`);
  planted.push(path);
  return path;
};

/** A script that leaves git settings for Wave's host-side git to run (each touching a host file of `marks`), then points .git at them. */
function gitEscape(): { marks: string[]; command: string } {
  const [fsmonitor, clean, ownMonitor, ownClean, textconv] = [hostFile('fsmonitor'), hostFile('clean'), hostFile('own-fsmonitor'), hostFile('own-clean'), hostFile('textconv')];
  const command = [
    // Its own git folder's config: read-only in a sandbox, writable on the host; Wave never reads it either way.
    `git config core.fsmonitor "touch ${ownMonitor}" 2>/dev/null`,
    `git config filter.own.clean "touch ${ownClean}; cat" 2>/dev/null`,
    // A repository of its own, with the settings git would run on the host, and .git pointed at it.
    'git init -q evil',
    `git -C evil config core.fsmonitor "touch ${fsmonitor}"`,
    `git -C evil config filter.x.clean "touch ${clean}; cat"`,
    'git -C evil config filter.x.required true',
    `git -C evil config diff.x.textconv "touch ${textconv}; cat"`,
    "printf '* filter=x diff=x\\n*.own filter=own\\n' > .gitattributes",
    'echo changed > a.txt && echo new > b.own',
    'echo "gitdir: $PWD/evil/.git" > .git',
  ].join('\n');
  return { marks: [fsmonitor, clean, ownMonitor, ownClean, textconv], command };
}

const COMMIT = 'git -c user.name=a -c user.email=a@example.invalid commit -q';

describe.each(['none', 'bubblewrap', 'docker'] as const)('%s: a worktree step against the host through git', (backend) => {
  describe.skipIf(backend !== 'none' && !backendAvailable(backend))(backend, () => {
    it("runs nothing on the host from a .git it rewrote, its own git folder's config, or .gitattributes naming filters", async () => {
      const { marks, command } = gitEscape();
      const { project } = worktreeProject(backend, () => command);
      const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
      expect(run.code, run.stderr + run.stdout).toBe(0);
      for (const file of marks) expect(existsSync(file), file).toBe(false);
      // The snapshots still ran: the changes are measured and shown.
      const changed = latestRun(project).steps.step!.filesChanged!.map((c) => c.path);
      expect(changed).toEqual(expect.arrayContaining(['a.txt', 'b.own', '.gitattributes']));
    });

    it('moves only its own branch in the project: main, tags and objects stay as they were', async () => {
      let objectFile = '';
      const { project, git } = worktreeProject(backend, (dir) => {
        const commonDir = join(dir, '.git');
        // The blob of a.txt on main, known before the repository exists: git hashes content alone.
        const blob = execFileSync('git', ['hash-object', '--stdin'], { input: 'original\n', encoding: 'utf8' }).trim();
        objectFile = join(commonDir, 'objects', blob.slice(0, 2), blob.slice(2));
        return [
          'echo work > a.txt',
          `${COMMIT} -am "the step's work"`,
          // In its own git folder: these stay there.
          'git update-ref refs/heads/main HEAD && git tag -f v1 HEAD && git tag extra HEAD',
          // Straight at the project's repository: read-only inside a sandbox (on the host, a step can write it).
          ...(backend === 'none'
            ? []
            : [
                `git --git-dir=${commonDir} update-ref refs/heads/main HEAD 2>/dev/null`,
                `git --git-dir=${commonDir} tag extra2 HEAD 2>/dev/null`,
                `echo "$(git rev-parse HEAD) refs/tags/extra3" >> ${commonDir}/packed-refs 2>/dev/null`,
                `chmod u+w ${objectFile} 2>/dev/null; echo replaced > ${objectFile} 2>/dev/null`,
              ]),
          'true',
        ].join('\n');
      });
      const main = git('rev-parse', 'main');
      const blob = git('rev-parse', 'main:a.txt');
      expect(objectFile).toContain(blob.slice(2));
      const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
      expect(run.code, run.stderr + run.stdout).toBe(0);
      expect(git('log', '--format=%s', '-1', 'agent')).toBe("the step's work");
      expect(git('rev-parse', 'main')).toBe(main);
      expect(git('tag', '--list').split('\n')).toEqual(['v1']);
      expect(git('rev-parse', 'v1')).toBe(main);
      expect(git('cat-file', 'blob', blob)).toBe('original');
      expect(() => git('fsck', '--strict', '--no-dangling')).not.toThrow();
    });

    it('cannot plant an object under a name its content does not hash to', async () => {
      const wanted = execFileSync('git', ['hash-object', '--stdin'], { input: 'what the project will fetch one day\n', encoding: 'utf8' }).trim();
      const { project, git } = worktreeProject(backend, () =>
        [
          'bad=$(echo poisoned | git hash-object -w --stdin)',
          'objects=$(git rev-parse --git-path objects)',
          `mkdir -p $objects/${wanted.slice(0, 2)}`,
          `cp $objects/$(echo $bad | cut -c1-2)/$(echo $bad | cut -c3-) $objects/${wanted.slice(0, 2)}/${wanted.slice(2)}`,
          `git update-index --add --cacheinfo 100644,${wanted},planted.txt`,
          `${COMMIT} -m planted`,
        ].join('\n'),
      );
      const before = git('rev-parse', 'main');
      const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
      expect(run.code).toBe(1);
      const failure = latestRun(project).steps.step!.failure!;
      expect(failure.class).toBe('workspace_failed');
      expect(failure.message).toContain('could not be taken into the repository');
      expect(git('rev-parse', 'agent')).toBe(before);
      expect(() => git('cat-file', '-e', wanted)).toThrow();
    });
  });
});

describe('the same escape through an agent, on the host (backend none)', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  const escapedBy = async (manifest: string, stepKeys: string) => {
    const { project } = repositoryProject(manifest, () => stepKeys);
    const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project, timeout: 280_000 });
    return { run, changed: latestRun(project).steps.step!.filesChanged?.map((c) => c.path) };
  };

  it('a process persona', async () => {
    const { marks, command } = gitEscape();
    const { run, changed } = await escapedBy(SHELL_MANIFEST, `    persona: shell\n    exec: { type: prompt, source: ${JSON.stringify(command)} }\n`);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    for (const file of marks) expect(existsSync(file), file).toBe(false);
    expect(changed).toEqual(expect.arrayContaining(['a.txt', 'b.own']));
  });

  it.skipIf(!cliAvailable('claude'))('real Claude Code, running the script with its Bash tool', { timeout: 240_000 }, async () => {
    const { marks, command } = gitEscape();
    const manifest = claudeManifest({ agent: `${server.url}/s/shell/${param(command)}` }, '  agent: { adapter: agent }');
    const { run, changed } = await escapedBy(manifest, '    persona: agent\n    exec: { type: prompt, source: "Do the task." }\n');
    expect(run.code, run.stderr + run.stdout).toBe(0);
    for (const file of marks) expect(existsSync(file), file).toBe(false);
    expect(changed).toEqual(expect.arrayContaining(['a.txt', 'b.own']));
  });
});
