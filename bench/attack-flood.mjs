// Containment II's attacks on `wave run`, repeatable: a connection flood on the egress proxy (per sandbox backend),
// the temp folders killed runs leave, daemons that escape a step on backend none, and a disk that fills mid-run.
// Each reports what got through next to its goal; a non-zero figure is a finding and is printed like any other.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FLOODER } from '../test/support/attacks.mjs';
import {
  NODE,
  WAVE,
  cannotMount,
  figure,
  marker,
  mountTmpfs,
  pipeline,
  processes,
  project,
  readRecord,
  runAttacks,
  runDirs,
  start,
  startWave,
  step,
  tempDir,
  waitFor,
} from './attack-harness.mjs';

const FLOOD = 20_000;
const FLOOD_RUNS = 3;
const KILLED_RUNS = 3;
const DAEMON_RUNS = 10;
const DISK_RUNS = 3;

const manifest = (backend) => `kind: WaveManifest
metadata: { name: flood }
runtime:
  max_concurrency: 2
  timeouts: { process_grace_seconds: 1 }
  sandbox: { backend: ${backend} }
`;

const floodCommand = (count, holdMs) => `node -e "$(echo ${Buffer.from(FLOODER).toString('base64')} | base64 -d)" ${count} ${holdMs}`;
const crashed = (result) => /\n\s+at .+:\d+:\d+/.test(`${result.stdout}\n${result.stderr}`) || /(^|\n)internal:/.test(result.stderr) || ![0, 1].includes(result.code);

/** Why a backend cannot run here, or undefined when it can. */
function unavailable(backend) {
  const probe = backend === 'bubblewrap' ? ['bwrap', ['--ro-bind', '/', '/', '--unshare-all', '--', '/bin/true']] : ['docker', ['image', 'inspect', 'wave-sandbox:local']];
  try {
    execFileSync(probe[0], probe[1], { stdio: 'ignore', timeout: 10_000 });
    return existsSync('/usr/bin/socat') ? undefined : 'socat is not installed';
  } catch {
    return backend === 'bubblewrap' ? 'bubblewrap cannot run here' : 'docker or its wave-sandbox:local image is missing';
  }
}

/** `wave run` with a step holding FLOOD connections to its proxy while other steps run: crashes, and runs left running. */
async function flood(backend) {
  const why = unavailable(backend);
  if (why) return `${backend}: skipped: ${why}`;
  let crashes = 0;
  let broken = 0;
  let leftRunning = 0;
  for (let i = 0; i < FLOOD_RUNS; i++) {
    // While the flood holds its connections, another step ends and a third starts: Wave needs descriptors then.
    const steps = [step('flood', { command: floodCommand(FLOOD, 4000) }), step('steady', { command: 'sleep 1' }), step('after', { deps: ['steady'], command: 'true' })];
    const dir = project({ 'pipelines/p.yaml': pipeline('p', ...steps) }, manifest(backend));
    // Wave's descriptors held to 1,024 (Node raises its soft limit to the hard one): the flood is twenty times that.
    const result = await start('prlimit', ['--nofile=1024:1024', '--', NODE, WAVE, 'run', 'p', '--output', 'quiet'], { cwd: dir }).done;
    const status = readRecord(runDirs(dir)[0])?.status;
    crashes += crashed(result) ? 1 : 0;
    broken += status === 'completed' ? 0 : 1;
    leftRunning += status === 'running' ? 1 : 0;
  }
  return [
    `${backend}, ${FLOOD} connections held against Wave's 1,024 descriptors, ${FLOOD_RUNS} runs:`,
    `${figure('Wave crashes', crashes)}, ${figure('runs the flood failed', broken)}, ${figure('runs left running', leftRunning)}`,
  ].join(' ');
}

/** Kills `wave run` of a sandboxed step KILLED_RUNS times, runs once more: the attempt folders left in its temp folder. */
async function killedRooms() {
  const why = unavailable('bubblewrap');
  if (why) return `temp folders of killed runs: skipped: ${why}`;
  const temp = tempDir();
  const rooms = () => readdirSync(temp).filter((name) => name.startsWith('wave-sbx-'));
  // Each run sweeps what the runs killed before it left: the folders are counted as each kill leaves one.
  let leftByKills = 0;
  const seen = new Set();
  for (let i = 0; i < KILLED_RUNS; i++) {
    const dir = project({ 'pipelines/p.yaml': pipeline('p', step('s', { command: `sleep ${marker()}` })) }, manifest('bubblewrap'));
    for (const name of rooms()) seen.add(name);
    const { child, done } = startWave(dir, ['run', 'p', '--output', 'quiet'], { TMPDIR: temp });
    const room = await waitFor(() => rooms().find((name) => !seen.has(name)), 'the sandbox to be prepared');
    seen.add(room);
    child.kill('SIGKILL');
    await done;
    leftByKills += existsSync(join(temp, room)) ? 1 : 0;
  }
  const next = project({ 'pipelines/q.yaml': pipeline('q', step('q', { command: 'true' })) }, manifest('none'));
  await startWave(next, ['run', 'q', '--output', 'quiet'], { TMPDIR: temp }).done;
  return `${figure('temp folders left after the next run', rooms().length)} of ${leftByKills} that ${KILLED_RUNS} killed bubblewrap runs left`;
}

/** A step on backend none that starts a double-forked, setsid'd daemon with a cleared environment, DAEMON_RUNS times. */
async function daemons() {
  let survivors = 0;
  for (let i = 0; i < DAEMON_RUNS; i++) {
    const [daemon, child] = [marker(), marker()];
    const command = `(setsid env -i /bin/sleep ${daemon} > /dev/null 2>&1 &); env -i /bin/sleep ${child} > /dev/null 2>&1 & sleep 0.2`;
    const dir = project({ 'pipelines/p.yaml': pipeline('p', step('s', { command })) }, manifest('none'));
    await startWave(dir, ['run', 'p', '--output', 'quiet']).done;
    const left = processes().filter((p) => p.cmdline === `/bin/sleep ${daemon}` || p.cmdline === `/bin/sleep ${child}`);
    survivors += left.length;
    for (const { pid } of left) process.kill(pid, 'SIGKILL');
  }
  const cgroups = existsSync('/sys/fs/cgroup/unified/cgroup.controllers') || existsSync('/sys/fs/cgroup/cgroup.controllers') ? 'cgroup v2 here' : 'no cgroup v2 here';
  return `${figure('surviving descendants on backend none', survivors)} of ${DAEMON_RUNS * 2} (a setsid'd daemon and a child, both clearing their environment, per run; ${cgroups})`;
}

/** A run whose step fills its run folder's 1 MiB disk, DISK_RUNS times: runs whose run.json still says running. */
async function diskFull() {
  const why = cannotMount();
  if (why) return `disk fault: skipped: ${why}`;
  let running = 0;
  for (let i = 0; i < DISK_RUNS; i++) {
    const steps = [step('a', { command: 'echo a' }), step('b', { deps: ['a'], command: 'yes 0123456789abcdef | head -c 3000000' }), step('c', { deps: ['b'], command: 'echo c' })];
    const dir = project({ 'pipelines/big.yaml': pipeline('big', ...steps) }, manifest('none'));
    mountTmpfs(join(dir, '.wave', 'runs'));
    await startWave(dir, ['run', 'big', '--output', 'quiet']).done;
    running += readRecord(runDirs(dir)[0])?.status === 'running' ? 1 : 0;
  }
  return `${figure('runs left running after a disk fault', running)} of ${DISK_RUNS}`;
}

const ATTACKS = [
  ['flood bubblewrap', () => flood('bubblewrap')],
  ['flood docker', () => flood('docker')],
  ['killed runs', killedRooms],
  ['daemons', daemons],
  ['disk fault', diskFull],
];

/** Runs every attack and returns its report lines. */
export const bench = () => runAttacks("attack-flood: Containment II's attacks on the built CLI; each figure with its goal", ATTACKS);

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
