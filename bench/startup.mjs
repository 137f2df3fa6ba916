// Cold start of `wave validate` on the shipped files, against `node -e 0`, both measured as fresh
// processes in this run and interleaved, so machine load affects both alike.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const RUNS = 15;
const GOAL = 3;

function timed(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stdout}${result.stderr}`);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  const node = [];
  const wave = [];
  timed([WAVE, 'validate']); // warm the file system cache for both sides
  for (let i = 0; i < RUNS; i++) {
    node.push(timed(['-e', '0']));
    wave.push(timed([WAVE, 'validate']));
  }
  const n = median(node);
  const w = median(wave);
  return [
    `validate: cold \`wave validate\` on the shipped files vs \`node -e 0\`, median of ${RUNS} interleaved runs`,
    `  node -e 0: ${n.toFixed(0)} ms   wave validate: ${w.toFixed(0)} ms`,
    `  ratio ${(w / n).toFixed(2)} (goal ≤ ${GOAL})`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
