// A worktree step against the host through git, in each backend that runs here: host files created by git settings
// the step wrote (fsmonitor, filter and textconv drivers, a rewritten .git), host refs, tags and objects changed by a
// sandboxed step, and objects planted under a name their content does not hash to. Every figure's goal is 0.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanUp, figure, NODE, pipeline, project, runWave, step, tempDir, WAVE } from './attack-harness.mjs';

const IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };
const COMMIT = 'git -c user.name=a -c user.email=a@example.invalid commit -q';

function usable(backend) {
  if (backend === 'none') return true;
  const dir = tempDir();
  writeFileSync(join(dir, 'wave.yaml'), `kind: WaveManifest\nmetadata: { name: probe }\nruntime: { sandbox: { backend: ${backend} } }\n`);
  const doctor = spawnSync(NODE, [WAVE, 'doctor', '--json'], { cwd: dir, encoding: 'utf8' });
  return JSON.parse(doctor.stdout).sandboxes.find((s) => s.backend === backend)?.usable === true;
}

/** A project on main (a.txt, tag v1) whose one step runs `command(commonDir)` in a worktree on branch `agent`. */
function worktreeProject(backend, command) {
  const dir = project(
    { 'a.txt': 'original\n' },
    `kind: WaveManifest\nmetadata: { name: attack }\nruntime:\n  timeouts: { process_grace_seconds: 1 }\n  sandbox: { backend: ${backend} }\n`,
  );
  const git = (...args) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, ...IDENTITY } }).trim();
  git('init', '-q', '-b', 'main');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'start');
  git('tag', 'v1');
  mkdirSync(join(dir, 'pipelines'), { recursive: true });
  writeFileSync(join(dir, 'pipelines', 'p.yaml'), pipeline('p', step('s', { command: command(join(dir, '.git')), more: ['workspace: { type: worktree, branch: agent }'] })));
  return { dir, git };
}

async function hostExecution(backend) {
  const marks = ['fsmonitor', 'clean', 'textconv', 'own'].map((name) => join(tempDir(), name));
  const { dir } = worktreeProject(backend, () =>
    [
      `git config core.fsmonitor "touch ${marks[3]}" 2>/dev/null`,
      'git init -q evil',
      `git -C evil config core.fsmonitor "touch ${marks[0]}"`,
      `git -C evil config filter.x.clean "touch ${marks[1]}; cat"`,
      `git -C evil config diff.x.textconv "touch ${marks[2]}; cat"`,
      "printf '* filter=x diff=x\\n' > .gitattributes",
      'echo changed > a.txt',
      'echo "gitdir: $PWD/evil/.git" > .git',
    ].join('\n'),
  );
  await runWave(dir, ['run', 'p', '--output', 'quiet']);
  return marks.filter((mark) => existsSync(mark)).length;
}

async function repositoryWrites(backend) {
  const { dir, git } = worktreeProject(backend, (common) =>
    [
      `echo work > a.txt && ${COMMIT} -am work`,
      'git update-ref refs/heads/main HEAD; git tag -f v1 HEAD; git tag extra HEAD',
      `git --git-dir=${common} update-ref refs/heads/main HEAD 2>/dev/null`,
      `git --git-dir=${common} tag extra2 HEAD 2>/dev/null`,
      `for f in ${common}/objects/??/*; do chmod u+w $f; echo replaced > $f; done 2>/dev/null`,
      'true',
    ].join('\n'),
  );
  const before = git('for-each-ref', '--format=%(objectname) %(refname)', 'refs/tags', 'refs/heads/main');
  await runWave(dir, ['run', 'p', '--output', 'quiet']);
  const after = git('for-each-ref', '--format=%(objectname) %(refname)', 'refs/tags', 'refs/heads/main');
  const fsck = spawnSync('git', ['-C', dir, 'fsck', '--strict', '--no-dangling'], { encoding: 'utf8' });
  return (before === after ? 0 : 1) + (fsck.status === 0 ? 0 : 1);
}

async function plantedObjects(backend) {
  const wanted = execFileSync('git', ['hash-object', '--stdin'], { input: 'a future object\n', encoding: 'utf8' }).trim();
  const { dir } = worktreeProject(backend, () =>
    [
      'bad=$(echo poisoned | git hash-object -w --stdin); objects=$(git rev-parse --git-path objects)',
      `mkdir -p $objects/${wanted.slice(0, 2)} && cp $objects/$(echo $bad | cut -c1-2)/$(echo $bad | cut -c3-) $objects/${wanted.slice(0, 2)}/${wanted.slice(2)}`,
      `git update-index --add --cacheinfo 100644,${wanted},planted.txt && ${COMMIT} -m planted`,
    ].join('\n'),
  );
  await runWave(dir, ['run', 'p', '--output', 'quiet']);
  return spawnSync('git', ['-C', dir, 'cat-file', '-e', wanted]).status === 0 ? 1 : 0;
}

/** Runs each attack in each backend that runs here and returns the report lines. */
export async function bench() {
  const lines = ['attack-git: a worktree step against the host through git; each figure with its goal'];
  for (const backend of ['none', 'bubblewrap', 'docker']) {
    if (!usable(backend)) {
      lines.push(`  ${backend}: not usable here, skipped`);
      continue;
    }
    try {
      const escapes = await hostExecution(backend);
      await cleanUp();
      const writes = backend === 'none' ? undefined : await repositoryWrites(backend);
      await cleanUp();
      const planted = await plantedObjects(backend);
      lines.push(
        `  ${backend}: ${figure('host commands run by git', escapes)}, ${writes === undefined ? 'repository writes: not contained on the host (no sandbox)' : figure('host refs, tags or objects changed', writes)}, ${figure('objects planted', planted)}`,
      );
    } finally {
      await cleanUp();
    }
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
