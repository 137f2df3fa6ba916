// How a run's cost grows with its size: 100 → 400 → 1,600 no-op command steps at width 8 through `wave run`
// (wall time and peak RSS, each a cold process), and 200 steps against `make -j8` doing the same work with a log
// file per target and against the recording floor (a folder, stdout and stderr piped into files, a pid file).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const WIDTH = 8;
const SIZES = [100, 400, 1600];
const COMPARED = 200;
const ROUNDS = 3;

const FLOOR = `
const { spawn } = require('node:child_process');
const { createWriteStream, mkdirSync, writeFileSync } = require('node:fs');
const [root, steps] = [process.argv[1], Number(process.argv[2])];
let next = 0;
const launch = () => {
  if (next >= steps) return;
  const dir = root + '/s' + next++ + '/attempt-1';
  mkdirSync(dir, { recursive: true });
  const child = spawn('/bin/sh', ['-c', 'true'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.pipe(createWriteStream(dir + '/stdout'));
  child.stderr.pipe(createWriteStream(dir + '/stderr'));
  writeFileSync(dir + '/pid', String(child.pid));
  child.on('close', launch);
};
for (let i = 0; i < ${WIDTH}; i++) launch();
`;

/** A project whose pipeline `noop` has `steps` independent no-op command steps. */
function project(root, steps) {
  const dir = join(root, `p${steps}`);
  mkdirSync(join(dir, 'pipelines'), { recursive: true });
  writeFileSync(join(dir, 'wave.yaml'), `kind: WaveManifest\nmetadata: { name: bench }\nruntime: { max_concurrency: ${WIDTH} }\n`);
  const lines = Array.from({ length: steps }, (_, i) => `  - { id: s${i}, exec: { type: command, source: "true" } }`).join('\n');
  writeFileSync(join(dir, 'pipelines', 'noop.yaml'), `kind: WavePipeline\nmetadata: { name: noop }\nsteps:\n${lines}\n`);
  return dir;
}

/** A Makefile of `steps` independent targets, each running `true` with its output in a log file of its own. */
function makefile(root, steps) {
  const dir = join(root, `make${steps}`);
  mkdirSync(dir, { recursive: true });
  const targets = Array.from({ length: steps }, (_, i) => `s${i}`);
  const rules = targets.map((t) => `${t}:\n\t@mkdir -p logs/${t} && sh -c true > logs/${t}/stdout 2> logs/${t}/stderr\n`).join('');
  writeFileSync(join(dir, 'Makefile'), `.PHONY: all ${targets.join(' ')}\nall: ${targets.join(' ')}\n${rules}`);
  return dir;
}

/** Wall time in ms and peak RSS in KB of one cold `wave run`, read from /usr/bin/time when present. */
function waveRun(dir) {
  const start = process.hrtime.bigint();
  const time = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, WAVE, 'run', 'noop', '--output', 'quiet'], { cwd: dir, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (time.error || time.status !== 0) throw new Error(`wave run exited ${time.status ?? time.error?.message}: ${time.stderr?.slice(-300)}`);
  return { ms, rssKb: Number(time.stderr.trim().split('\n').at(-1)) };
}

function timed(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const hasProgram = (path) => spawnSync(path, ['--version'], { stdio: 'ignore' }).status === 0;

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  if (!hasProgram('/usr/bin/time')) return ['scaling: skipped: install GNU time (Debian package `time`) to measure peak RSS'];
  const root = mkdtempSync(join(tmpdir(), 'wave-bench-scale-'));
  const lines = [];
  try {
    const runs = SIZES.map((steps) => {
      const dir = project(root, steps);
      const samples = Array.from({ length: ROUNDS }, () => waveRun(dir));
      return { steps, ms: median(samples.map((s) => s.ms)), rssKb: median(samples.map((s) => s.rssKb)) };
    });
    for (const run of runs) lines.push(`scaling: ${run.steps} no-op steps at width ${WIDTH}: ${(run.ms / 1000).toFixed(2)} s, peak RSS ${(run.rssKb / 1024).toFixed(0)} MB`);
    for (let i = 1; i < runs.length; i++) {
      const [a, b] = [runs[i - 1], runs[i]];
      const perStepKb = (b.rssKb - a.rssKb) / (b.steps - a.steps);
      lines.push(`scaling: ${a.steps} → ${b.steps} steps: time ×${(b.ms / a.ms).toFixed(2)} (linear ×${b.steps / a.steps}), RSS +${perStepKb.toFixed(1)} KB a step (goal ≤ 10)`);
    }
    const dir = project(root, COMPARED);
    const wave = median(Array.from({ length: ROUNDS }, () => waveRun(dir).ms));
    const floor = median(Array.from({ length: ROUNDS }, () => timed(() => execFileSync(process.execPath, ['-e', FLOOR, mkdtempSync(join(root, 'floor-')), String(COMPARED)]))));
    lines.push(`scaling: ${COMPARED} steps: wave ${wave.toFixed(0)} ms; per-step overhead above the recording floor ${((wave - floor) / COMPARED).toFixed(2)} ms (goal ≤ 1)`);
    if (hasProgram('make')) {
      const make = median(Array.from({ length: ROUNDS }, () => timed(() => execFileSync('make', ['-s', `-j${WIDTH}`, '-C', makefile(root, COMPARED), 'all']))));
      lines.push(`scaling: ${COMPARED} steps: wave / make -j${WIDTH} with a log file per target = ${(wave / make).toFixed(2)} (goal ≤ 1.5)`);
    } else lines.push('scaling: the make comparison skipped: install make');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
