// Fan-out: 100 items through one iterate step (a one-step child pipeline per item, 8 at once) against a pipeline
// of 100 plain command steps doing the same work at max_concurrency 8, both through `wave run` in the same run:
// what a child run costs beyond the step it runs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, timed } from './overhead.mjs';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const ITEMS = 100;
const WIDTH = 8;
const ROUNDS = 5;
/** The work of each step: a small file written in its workspace. */
const WORK = "printf '%s' done > out.txt";

/** Writes into `dir` a project with `plain` (ITEMS command steps) and `fan` (one iterate step over ITEMS items of `one`). */
export function fanOutProject(dir) {
  mkdirSync(join(dir, 'pipelines'), { recursive: true });
  writeFileSync(join(dir, 'wave.yaml'), `kind: WaveManifest\nmetadata: { name: bench }\nruntime: { max_concurrency: ${WIDTH} }\n`);
  const step = (id) => `  - { id: ${id}, exec: { type: command, source: ${JSON.stringify(WORK)} } }`;
  const steps = Array.from({ length: ITEMS }, (_, i) => step(`s${i}`)).join('\n');
  writeFileSync(join(dir, 'pipelines', 'plain.yaml'), `kind: WavePipeline\nmetadata: { name: plain }\nsteps:\n${steps}\n`);
  writeFileSync(join(dir, 'pipelines', 'one.yaml'), `kind: WavePipeline\nmetadata: { name: one }\nsteps:\n${step('work')}\n`);
  const items = JSON.stringify(Array.from({ length: ITEMS }, (_, i) => i));
  const fan = `kind: WavePipeline
metadata: { name: fan }
steps:
  - id: each
    iterate: { over: '${items}', mode: parallel, max_concurrent: ${WIDTH} }
    pipeline: one
    input: "{{ item }}"
`;
  writeFileSync(join(dir, 'pipelines', 'fan.yaml'), fan);
  return dir;
}

/** Milliseconds one `wave run <pipeline>` took in `dir`; throws when the run fails. */
function runTime(dir, pipeline) {
  return timed(() => {
    const r = spawnSync(process.execPath, [WAVE, 'run', pipeline, '--output', 'quiet'], { cwd: dir, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`wave run ${pipeline} exited ${r.status}`);
  });
}

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  const dir = fanOutProject(mkdtempSync(join(tmpdir(), 'wave-fan-out-')));
  const plain = [];
  const fan = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      plain.push(runTime(dir, 'plain'));
      fan.push(runTime(dir, 'fan'));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const p = median(plain) / ITEMS;
  const f = median(fan) / ITEMS;
  return [
    `fan-out: ${ITEMS} items at width ${WIDTH}, each a small file written by a command step, median of ${ROUNDS} interleaved wave runs`,
    `  plain steps: ${p.toFixed(2)} ms per item   iterate over a one-step child pipeline: ${f.toFixed(2)} ms per item`,
    `  ratio ${(f / p).toFixed(2)} (goal ≤ 2)   a child run costs ${(f - p).toFixed(2)} ms more than the step it runs`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
