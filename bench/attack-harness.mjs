// The attack benches' harness: throwaway projects, the built CLI started and awaited, /proc read for processes, mounts,
// and cleanUp() undoing whatever the current attack made.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
export const NODE = process.execPath;
const WAVE_TIMEOUT_MS = 60_000;
// ---------------------------------------------------------------------------------------------------------------
// Harness: projects, processes, mounts, and undoing them

/** What the current attack made; cleanUp() undoes it. */
export const made = { dirs: [], mounts: [], children: new Set() };

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const figure = (label, count, goal = 0) => `${label} ${count} (goal ${goal})`;
export const readIf = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
export const occurrences = (text, needle) => text.split(needle).length - 1;
export const isInside = (path, dir) => path === dir || path.startsWith(`${dir}/`);

export function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'wave-bench-attack-'));
  made.dirs.push(dir);
  return dir;
}

export function writeFiles(dir, files) {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** A throwaway project: wave.yaml (the plain manifest unless given) and the given files. */
export function project(files = {}, manifestText = manifest()) {
  const dir = tempDir();
  writeFiles(dir, { 'wave.yaml': manifestText, ...files });
  return dir;
}

export function manifest({ adapters = '', passthrough = [] } = {}) {
  return `kind: WaveManifest
metadata: { name: attack }
${adapters}runtime:
  max_concurrency: 4
  timeouts: { process_grace_seconds: 1 }
  sandbox: { backend: none, env_passthrough: [${passthrough.join(', ')}] }
`;
}

/** One pipeline step: a command unless `exec` says otherwise; `more` holds its other keys, one a line. */
export function step(id, { deps = [], command, exec = { type: 'command', source: command }, more = [] }) {
  return [`  - id: ${id}`, `    dependencies: [${deps.join(', ')}]`, ...more.map((line) => `    ${line}`), `    exec: ${JSON.stringify(exec)}`, ''].join('\n');
}

export const pipeline = (name, ...steps) => `kind: WavePipeline\nmetadata: { name: ${name} }\nsteps:\n${steps.join('')}`;

/** Starts a process and collects its output; `done` resolves with its exit code or signal (SIGKILLed past the timeout). */
export function start(command, args, { cwd, env = {} }) {
  const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  made.children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), WAVE_TIMEOUT_MS);
  const done = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      made.children.delete(child);
      resolve({ code, signal, stdout, stderr, pid: child.pid });
    }),
  );
  return { child, done };
}

export const startWave = (cwd, args, env) => start(NODE, [WAVE, ...args], { cwd, env });
export const runWave = (cwd, args, env) => startWave(cwd, args, env).done;

/** Polls `check` every 20 ms until it returns something truthy (returned) or `timeoutMs` passes (undefined). */
export async function poll(check, timeoutMs) {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(20)) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) return undefined;
  }
}

export async function waitFor(check, what, timeoutMs = 20_000) {
  const value = await poll(check, timeoutMs);
  if (!value) throw new Error(`timed out waiting for ${what}`);
  return value;
}

/** The live processes (zombies are dead) with their command line, environment and working folder. */
export function processes() {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        if (stat[stat.lastIndexOf(')') + 2] === 'Z') return [];
        const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
        const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
        return [{ pid: Number(name), cmdline, environ, cwd: readlinkSync(`/proc/${name}/cwd`) }];
      } catch {
        return []; // gone meanwhile, or not ours to read
      }
    });
}

/** Processes that carry a run's identity in their environment: its steps and whatever they started. */
export const carrying = (runId) => processes().filter((p) => p.environ.includes(`WAVE_RUN_ID=${runId}`));

/** A number for `sleep` that no other process carries in its arguments. */
export const marker = () => `${3000 + Math.floor(Math.random() * 6000)}.${Math.floor(Math.random() * 1e6)}`;

export function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** A project's run folders (a disk-fault test's filler file is none). */
export const runDirs = (dir, runsRoot = join(dir, '.wave', 'runs')) =>
  existsSync(runsRoot)
    ? readdirSync(runsRoot)
        .filter((name) => name !== 'filler')
        .sort()
        .map((id) => join(runsRoot, id))
    : [];

export function readRecord(runDir) {
  try {
    return JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** events.ndjson, skipping a line a kill tore. */
export function readEvents(runDir) {
  return (readIf(join(runDir, 'events.ndjson')) ?? '').split('\n').flatMap((line) => {
    try {
      return line ? [JSON.parse(line)] : [];
    } catch {
      return [];
    }
  });
}

export function isMountPoint(dir) {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[4] === dir);
}

export function mountTmpfs(dir, size = '1m') {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  made.mounts.push(dir);
}

export const remount = (dir, options) => execFileSync('mount', ['-o', `remount,${options}`, dir], { stdio: 'pipe' });

/** Why a tmpfs cannot be mounted here (not root, not Linux, refused), or undefined when it can. */
export function cannotMount() {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'needs root to mount a tmpfs';
  const dir = tempDir();
  try {
    mountTmpfs(dir, '64k');
    return undefined;
  } catch (error) {
    return `cannot mount a tmpfs here: ${String(error.stderr ?? error.message).trim()}`;
  } finally {
    for (const mounted of made.mounts.splice(0)) unmountAll(mounted);
  }
}

/** Removes every mount stacked on `dir`, lazily so that a file left open cannot keep it busy. */
export function unmountAll(dir) {
  for (let i = 0; i < 10 && isMountPoint(dir); i++) execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
}

/** Ends what the attack started (its Wave processes, then every process still working in one of its folders), unmounts, removes. */
export async function cleanUp() {
  for (const child of made.children) child.kill('SIGKILL');
  const strays = processes().filter(
    (p) => p.pid !== process.pid && made.dirs.some((dir) => isInside(p.cwd, dir) || p.environ.some((e) => e.startsWith('WAVE_WORKSPACE=') && isInside(e.slice(15), dir))),
  );
  for (const { pid } of strays) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (made.children.size || strays.length) await sleep(200);
  for (const dir of made.mounts.splice(0).reverse()) unmountAll(dir);
  for (const dir of made.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  made.children.clear();
}

/**
 * Runs each [name, attack] in turn, cleaning up after each; returns the report: `title`, then each attack's figure (or
 * figures) with its time. Throws, with the whole report, when an attack could not be staged.
 */
export async function runAttacks(title, attacks) {
  const lines = [title];
  const unstaged = [];
  // Interrupted, the bench still ends what the current attack started, unmounts and removes its folders.
  const onSignal = (signal) => void cleanUp().finally(() => process.exit(128 + constants.signals[signal]));
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  for (const [name, attack] of attacks) {
    const started = Date.now();
    try {
      lines.push(`  ${[await attack()].flat().join('; ')} [${((Date.now() - started) / 1000).toFixed(1)} s]`);
    } catch (error) {
      unstaged.push(name);
      lines.push(`  ${name}: could not be staged: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await cleanUp();
    }
  }
  process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  if (unstaged.length) throw new Error(`${unstaged.length} attack(s) could not be staged (${unstaged.join(', ')}):\n${lines.join('\n')}`);
  return lines;
}
