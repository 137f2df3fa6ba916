// How a run's cost grows with its size: 100 → 400 → 1,600 no-op command steps at width 8 through `wave run`,
// wall time and peak RSS of each as a cold process (overhead.mjs compares 200 steps with direct spawns, the
// recording floor and make).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, noopProject } from './overhead.mjs';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const WIDTH = 8;
const SIZES = [100, 400, 1600];
const ROUNDS = 3;

/** Wall time in ms and peak RSS in KB of one cold `wave run`, peak RSS as GNU time reports it. */
function waveRun(dir) {
  const start = process.hrtime.bigint();
  const time = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, WAVE, 'run', 'noop', '--output', 'quiet'], { cwd: dir, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (time.error || time.status !== 0) throw new Error(`wave run exited ${time.status ?? time.error?.message}: ${time.stderr?.slice(-300)}`);
  return { ms, rssKb: Number(time.stderr.trim().split('\n').at(-1)) };
}

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  if (spawnSync('/usr/bin/time', ['--version'], { stdio: 'ignore' }).status !== 0) return ['scaling: skipped: install GNU time (Debian package `time`) to measure peak RSS'];
  const root = mkdtempSync(join(tmpdir(), 'wave-bench-scale-'));
  const lines = [];
  try {
    const runs = SIZES.map((steps) => {
      const dir = noopProject(join(root, `p${steps}`), steps, WIDTH);
      const samples = Array.from({ length: ROUNDS }, () => waveRun(dir));
      return { steps, ms: median(samples.map((s) => s.ms)), rssKb: median(samples.map((s) => s.rssKb)) };
    });
    for (const run of runs) lines.push(`scaling: ${run.steps} no-op steps at width ${WIDTH}: ${(run.ms / 1000).toFixed(2)} s, peak RSS ${(run.rssKb / 1024).toFixed(0)} MB`);
    for (let i = 1; i < runs.length; i++) {
      const [a, b] = [runs[i - 1], runs[i]];
      const perStepKb = (b.rssKb - a.rssKb) / (b.steps - a.steps);
      lines.push(`scaling: ${a.steps} → ${b.steps} steps: time ×${(b.ms / a.ms).toFixed(2)} (linear ×${b.steps / a.steps}), RSS +${perStepKb.toFixed(1)} KB a step (goal ≤ 10)`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
