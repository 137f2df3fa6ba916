// Start-up: cold `wave validate` on the shipped files, `wave run` of one no-op step and `wave status` of that run,
// each against `node -e 0`, all measured as fresh processes in this run and interleaved, so machine load affects
// every side alike.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const RUNS = 15;

function timed(args, cwd) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stdout}${result.stderr}`);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A project with one no-op command step, and the id of a run of it. */
function oneStepProject() {
  const dir = mkdtempSync(join(tmpdir(), 'wave-bench-startup-'));
  mkdirSync(join(dir, 'pipelines'));
  writeFileSync(join(dir, 'wave.yaml'), 'kind: WaveManifest\nmetadata: { name: startup }\n');
  writeFileSync(join(dir, 'pipelines', 'one.yaml'), 'kind: WavePipeline\nmetadata: { name: one }\nsteps:\n  - { id: noop, exec: { type: command, source: "true" } }\n');
  timed([WAVE, 'run', 'one', '--output', 'quiet'], dir);
  const [runId] = readdirSync(join(dir, '.wave', 'runs'));
  return { dir, runId };
}

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  const { dir, runId } = oneStepProject();
  const rows = [
    { label: '`wave validate` on the shipped files', args: [WAVE, 'validate'], cwd: ROOT, goal: 2.0, ms: [] },
    { label: '`wave run` of one no-op step', args: [WAVE, 'run', 'one', '--output', 'quiet'], cwd: dir, goal: 1.8, ms: [] },
    { label: '`wave status` of that run', args: [WAVE, 'status', runId], cwd: dir, goal: 1.5, ms: [] },
  ];
  const node = [];
  try {
    for (const row of rows) timed(row.args, row.cwd); // warm the file system cache for every side
    for (let i = 0; i < RUNS; i++) {
      node.push(timed(['-e', '0'], ROOT));
      for (const row of rows) row.ms.push(timed(row.args, row.cwd));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const n = median(node);
  return [
    `startup: cold commands vs \`node -e 0\` (${n.toFixed(0)} ms), median of ${RUNS} interleaved runs`,
    ...rows.map((row) => `  ${row.label}: ${median(row.ms).toFixed(0)} ms   ratio ${(median(row.ms) / n).toFixed(2)} (goal ≤ ${row.goal.toFixed(1)})`),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
