// Executor overhead: 200 no-op command steps at width 8 through `wave run`, against the same 200
// processes spawned directly by a node script at width 8, against the recording floor, and against `make -j8`
// doing the same work with a log file per target, all measured as cold processes in this run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const STEPS = 200;
const WIDTH = 8;
const ROUNDS = 5;

const DIRECT = `
const { spawn } = require('node:child_process');
let next = 0, done = 0;
const launch = () => {
  if (next >= ${STEPS}) return;
  next++;
  spawn('/bin/sh', ['-c', 'true'], { stdio: 'ignore', detached: true }).on('exit', () => { done++; launch(); });
};
for (let i = 0; i < ${WIDTH}; i++) launch();
`;

// The least any recording executor does per step: a folder, stdout and stderr piped into files, a pid file.
// No Wave code runs: it shows what the recording alone costs next to DIRECT.
const FLOOR = `
const { spawn } = require('node:child_process');
const { createWriteStream, mkdirSync, writeFileSync } = require('node:fs');
const root = process.argv[1];
let next = 0;
const launch = () => {
  if (next >= ${STEPS}) return;
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

/** Writes into `dir` a project whose pipeline `noop` has `steps` independent no-op command steps, run `width` at once. */
export function noopProject(dir, steps, width = WIDTH) {
  mkdirSync(join(dir, 'pipelines'), { recursive: true });
  writeFileSync(join(dir, 'wave.yaml'), `kind: WaveManifest\nmetadata: { name: bench }\nruntime: { max_concurrency: ${width} }\n`);
  const lines = Array.from({ length: steps }, (_, i) => `  - { id: s${i}, exec: { type: command, source: "true" } }`).join('\n');
  writeFileSync(join(dir, 'pipelines', 'noop.yaml'), `kind: WavePipeline\nmetadata: { name: noop }\nsteps:\n${lines}\n`);
  return dir;
}

/** Writes into `dir` a Makefile of STEPS independent targets, each running `true` with its output in a log file of its own. */
function makefile(dir) {
  const targets = Array.from({ length: STEPS }, (_, i) => `s${i}`);
  const rules = targets.map((t) => `${t}:\n\t@mkdir -p logs/${t} && sh -c true > logs/${t}/stdout 2> logs/${t}/stderr\n`).join('');
  writeFileSync(join(dir, 'Makefile'), `.PHONY: all ${targets.join(' ')}\nall: ${targets.join(' ')}\n${rules}`);
  return dir;
}

/** Milliseconds `fn` took. */
export function timed(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The median of a list of numbers. */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const hasMake = () => spawnSync('make', ['--version'], { stdio: 'ignore' }).status === 0;

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  const dir = noopProject(mkdtempSync(join(tmpdir(), 'wave-bench-')), STEPS);
  const make = hasMake() ? makefile(mkdtempSync(join(dir, 'make-'))) : undefined;
  const direct = [];
  const floor = [];
  const wave = [];
  const made = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      direct.push(timed(() => execFileSync(process.execPath, ['-e', DIRECT])));
      floor.push(timed(() => execFileSync(process.execPath, ['-e', FLOOR, mkdtempSync(join(dir, 'floor-'))])));
      if (make) made.push(timed(() => execFileSync('make', ['-s', `-j${WIDTH}`, '-B', '-C', make, 'all'])));
      wave.push(
        timed(() => {
          const r = spawnSync(process.execPath, [WAVE, 'run', 'noop', '--output', 'quiet'], { cwd: dir, stdio: 'ignore' });
          if (r.status !== 0) throw new Error(`wave run exited ${r.status}`);
        }),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const d = median(direct);
  const f = median(floor);
  const w = median(wave);
  return [
    `overhead: ${STEPS} no-op command steps at width ${WIDTH}, median of ${ROUNDS} interleaved runs`,
    `  direct node spawn: ${d.toFixed(0)} ms   wave run: ${w.toFixed(0)} ms`,
    `  floor (a script doing only the per-step recording, no Wave): ${f.toFixed(0)} ms, ratio ${(f / d).toFixed(2)}, ${((f - d) / STEPS).toFixed(2)} ms per step`,
    `  ratio ${(w / d).toFixed(2)}   per-step overhead ${((w - d) / STEPS).toFixed(2)} ms`,
    `  above the floor: ${((w - f) / STEPS).toFixed(2)} ms per step (goal ≤ 1)`,
    make
      ? `  make -j${WIDTH} with a log file per target: ${median(made).toFixed(0)} ms, wave / make ${(w / median(made)).toFixed(2)} (goal ≤ 1.5)`
      : '  make: not installed, its comparison skipped',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
