// Record and replay: a 4-step Claude Code pipeline (each step writes a file) against the scripted model server, run
// live with recording on and with it off (the recording's overhead), the recording's size against the raw stream and
// the changed files, and `wave replay` of the recorded run against its live run. All cold processes in this run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer } from '../test/support/model-server.mjs';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const CLAUDE = fileURLToPath(new URL('../node_modules/.bin/claude', import.meta.url));
const ROUNDS = 5;
const STEPS = 4;

// Asynchronous on purpose: the model server answers from this same process.
function timedWave(args, cwd) {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WAVE, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`wave ${args[0]} exited ${code}: ${stderr.slice(-400)}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Bytes under `path` (a file or a folder). */
function bytesOf(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  return stat.isDirectory() ? readdirSync(path).reduce((sum, name) => sum + bytesOf(join(path, name)), 0) : stat.size;
}

/** A project whose manifest turns recording on or off, and its pipeline of STEPS steps each writing a file. */
function project(root, name, recording, baseUrl) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'pipelines'), { recursive: true });
  writeFileSync(
    join(dir, 'wave.yaml'),
    `kind: WaveManifest
metadata: { name: bench }
adapters:
  claude: { type: claude, binary: ${CLAUDE}, model: claude-test, base_url: "${baseUrl}", env: { ANTHROPIC_API_KEY: fake-key, CLAUDE_CONFIG_DIR: ${join(dir, 'home')} } }
personas:
  agent: { adapter: claude }
runtime: { recording: { enabled: ${recording} } }
`,
  );
  const steps = Array.from({ length: STEPS }, (_, i) => {
    const after = i === 0 ? '' : `, dependencies: [s${i - 1}]`;
    return `  - { id: s${i}, persona: agent${after}, exec: { type: prompt, source: "Write \`notes-${i}.md\` about step ${i}." } }`;
  });
  writeFileSync(join(dir, 'pipelines', 'four.yaml'), `kind: WavePipeline\nmetadata: { name: four }\nsteps:\n${steps.join('\n')}\n`);
  return dir;
}

/** The newest run folder of a project. */
function newestRun(dir) {
  const runs = join(dir, '.wave', 'runs');
  return readdirSync(runs)
    .map((id) => ({ id, at: statSync(join(runs, id)).mtimeMs }))
    .sort((a, b) => b.at - a.at)[0].id;
}

/** The recording's bytes against what it records: the raw streams, and the files the attempts changed. */
function sizes(runFolder) {
  let recording = 0;
  let stream = 0;
  let changed = 0;
  for (const step of readdirSync(join(runFolder, 'steps'))) {
    for (const attempt of readdirSync(join(runFolder, 'steps', step)).filter((name) => name.startsWith('attempt-'))) {
      const at = join(runFolder, 'steps', step, attempt);
      stream += bytesOf(join(at, 'stdout')) + bytesOf(join(at, 'stderr'));
      changed += bytesOf(join(at, 'workspace', 'files'));
      recording += ['stdout', 'stderr', 'output.timing', 'attempt.json', 'workspace', 'http.ndjson'].reduce((sum, name) => sum + bytesOf(join(at, name)), 0);
    }
  }
  return { recording, stream, changed };
}

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  if (!existsSync(CLAUDE)) return ['replay: skipped: Claude Code is not installed (npm install --save-dev @anthropic-ai/claude-code)'];
  const server = await startModelServer();
  const root = mkdtempSync(join(tmpdir(), 'wave-bench-replay-'));
  const baseUrl = `${server.url}/s/author`;
  const recorded = project(root, 'recorded', true, baseUrl);
  const unrecorded = project(root, 'unrecorded', false, baseUrl);
  const on = [];
  const off = [];
  const replayed = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      off.push(await timedWave(['run', 'four', '--output', 'quiet'], unrecorded));
      on.push(await timedWave(['run', 'four', '--output', 'quiet'], recorded));
    }
    const run = newestRun(recorded);
    for (let i = 0; i < ROUNDS; i++) replayed.push(await timedWave(['replay', run, '--output', 'quiet'], recorded));
    const { recording, stream, changed } = sizes(join(recorded, '.wave', 'runs', run));
    const live = median(on);
    return [
      `replay: a ${STEPS}-step Claude Code pipeline (each step writes a file) against the scripted model server, median of ${ROUNDS}`,
      `  live, recording off: ${median(off).toFixed(0)} ms   live, recording on: ${live.toFixed(0)} ms   ratio ${(live / median(off)).toFixed(2)} (goal ≤ 1.05)`,
      `  recording: ${recording} bytes = ${changed} bytes of changed files + ${((recording - changed) / stream).toFixed(2)}× the ${stream} bytes of raw stream (goal ≤ 2×)`,
      `  wave replay: ${median(replayed).toFixed(0)} ms against the live run's ${live.toFixed(0)} ms: ratio ${(median(replayed) / live).toFixed(2)}`,
    ];
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
