// Containment II's attacks on a sandboxed step's limits, repeatable against the built CLI: a step writing 2 GiB with
// disk_mb: 512 in each backend (into /tmp, HOME and its workspace), and a Docker daemon killed mid-step (one this
// bench starts on its own socket, never the machine's shared one). Each figure comes with its goal; a backend this
// machine lacks is an attack that could not be staged.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { OwnDockerd } from '../test/support/own-dockerd.mjs';
import { cleanUp, figure, marker, pipeline, poll, project, readIf, readRecord, runAttacks, runDirs, runWave, startWave, step, waitFor } from './attack-harness.mjs';

const DISK_MB = 512;
/** The writer's chunk: what it has printed, times this, is what it wrote before it was stopped. */
const CHUNK_MB = 16;
const TARGETS = { '/tmp': '/tmp', HOME: '"$HOME"', workspace: '.' };
const KILLS = 3;
/** A run still going this long after its daemon died counts as hung. */
const HUNG_AFTER_MS = 60_000;

const sandboxManifest = (backend, limits = '') => `kind: WaveManifest
metadata: { name: attack-limits }
runtime:
  timeouts: { process_grace_seconds: 1 }
  sandbox:
    backend: ${backend}
    env_passthrough: [STEP_SLEEP]
${limits}`;

/** Whether the shared machine's backend can run a step here. */
function backendReady(backend) {
  try {
    if (backend === 'bubblewrap') execFileSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', '--', '/bin/true'], { stdio: 'ignore', timeout: 10_000 });
    else execFileSync('docker', ['image', 'inspect', 'wave-sandbox:local'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** One run writing 2 GiB in 16 MiB chunks into `target`: whether it was stopped at the limit, and the MiB written past it. */
async function diskAttack(backend, target) {
  const writer = `for i in $(seq 1 128); do head -c ${CHUNK_MB * 1024 * 1024} /dev/zero >> ${target}/big || exit 1; echo $i; done`;
  const dir = project({ 'pipelines/p.yaml': pipeline('p', step('step', { command: writer })) }, sandboxManifest(backend, `    limits: { disk_mb: ${DISK_MB} }\n`));
  await runWave(dir, ['run', 'p', '--output', 'text']);
  const runDir = runDirs(dir).at(-1);
  const failure = readRecord(runDir)?.steps?.step?.failure;
  const printed = (readIf(join(runDir, 'steps', 'step', 'attempt-1', 'stdout')) ?? '').trim().split('\n').filter(Boolean).length;
  return { stopped: failure?.class === 'limit_exceeded' && failure.message.includes('disk_mb'), pastMb: Math.max(0, printed * CHUNK_MB - DISK_MB) };
}

async function diskLimit(backend) {
  if (!backendReady(backend)) throw new Error(`${backend} cannot run here (bash .ci/sandbox-up.sh sets it up)`);
  const results = [];
  for (const [name, target] of Object.entries(TARGETS)) {
    results.push({ name, ...(await diskAttack(backend, target)) });
    await cleanUp();
  }
  const unstopped = results.filter((r) => !r.stopped).length;
  const past = results.map((r) => `${r.name} ${r.pastMb}`).join(', ');
  return `${figure(`${backend}: 2 GiB writes with disk_mb: ${DISK_MB} not stopped (of ${results.length})`, unstopped, 0)}; MiB written past the limit before the stop: ${past}`;
}

/** One kill -9 of the daemon mid-step: whether the run ended, how long after the kill, and whether a resume finished it. */
async function killOnce(daemon) {
  const dir = project({ 'pipelines/p.yaml': pipeline('p', step('step', { command: 'echo started; sleep $STEP_SLEEP' })) }, sandboxManifest('docker'));
  const env = { DOCKER_HOST: daemon.host, STEP_SLEEP: marker() };
  const wave = startWave(dir, ['run', 'p', '--output', 'text'], env);
  const started = () => runDirs(dir).some((runDir) => (readIf(join(runDir, 'steps', 'step', 'attempt-1', 'stdout')) ?? '').includes('started'));
  await waitFor(started, 'the step to start', 60_000);
  const killedAt = Date.now();
  daemon.kill();
  const ended = await Promise.race([wave.done.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), HUNG_AFTER_MS))]);
  const seconds = (Date.now() - killedAt) / 1000;
  if (!ended) wave.child.kill('SIGKILL');
  const runDir = runDirs(dir).at(-1);
  const failed = readRecord(runDir)?.steps?.step?.failure?.class === 'sandbox_unavailable';
  await daemon.start();
  await runWave(dir, ['resume', readRecord(runDir).id, '--output', 'text'], { ...env, STEP_SLEEP: '0.1' });
  const resumed = (await poll(() => readRecord(runDir)?.status === 'completed', 1_000)) === true;
  return { hung: !ended, seconds, failed, resumed };
}

async function daemonKill() {
  if (process.getuid?.() !== 0) throw new Error('starting a Docker daemon of its own needs root');
  const daemon = new OwnDockerd();
  try {
    await daemon.start();
    const results = [];
    for (let i = 0; i < KILLS; i++) {
      results.push(await killOnce(daemon));
      await cleanUp();
    }
    const seconds = results.map((r) => r.seconds.toFixed(1)).join(', ');
    return [
      figure(`docker: runs hung ${HUNG_AFTER_MS / 1000} s after a kill -9 of their daemon mid-step (of ${KILLS})`, results.filter((r) => r.hung).length, 0),
      figure('  attempts not failed sandbox_unavailable', results.filter((r) => !r.failed).length, 0),
      figure('  runs not finished by wave resume once the daemon was back', results.filter((r) => !r.resumed).length, 0),
      `  seconds from the kill to the run's recorded end: ${seconds}`,
    ].join('\n  ');
  } finally {
    await daemon.remove();
  }
}

const ATTACKS = [
  ['disk limit, bubblewrap', () => diskLimit('bubblewrap')],
  ['disk limit, docker', () => diskLimit('docker')],
  ['docker daemon killed mid-step', daemonKill],
];

export async function bench() {
  return runAttacks("attack-limits: Containment II's attacks on a sandboxed step's limits and its Docker daemon; each figure with its goal", ATTACKS);
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
