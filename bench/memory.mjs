// Peak RSS of `wave run` while one command step prints 1 GiB to stdout, against the peak RSS of
// `node -e 0` in the same run; the goal is a flat executor (≤ 100 MB).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));

/** Runs a command, sampling its peak RSS (VmHWM) until it exits; returns MB. */
function peakRss(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: 'ignore' });
    let peak = 0;
    const sample = () => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peak = Math.max(peak, kb);
      } catch {
        // The process has exited between samples.
      }
    };
    const timer = setInterval(sample, 20);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}`));
      else resolve(peak / 1024);
    });
  });
}

// The least any recording executor holds: node itself piping the same two steps' output into files, one after the other.
const FLOOR = `
const { spawn } = require('node:child_process');
const { createWriteStream } = require('node:fs');
const steps = ${JSON.stringify(['yes 0123456789abcdef | head -c 1073741824', "head -c 1073741824 /dev/zero | tr '[:cntrl:]' x"])};
const next = (i) => {
  if (i === steps.length) return;
  const child = spawn('/bin/sh', ['-c', steps[i]], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(createWriteStream(process.argv[1] + '/stdout-' + i));
  child.stderr.pipe(createWriteStream(process.argv[1] + '/stderr-' + i));
  child.on('close', () => next(i + 1));
};
next(0);
`;

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  const dir = mkdtempSync(join(tmpdir(), 'wave-bench-'));
  writeFileSync(join(dir, 'wave.yaml'), 'kind: WaveManifest\nmetadata: { name: bench }\n');
  mkdirSync(join(dir, 'pipelines'));
  writeFileSync(
    join(dir, 'pipelines', 'big.yaml'),
    `kind: WavePipeline\nmetadata: { name: big }\nsteps:\n  - { id: lines, exec: { type: command, source: "yes 0123456789abcdef | head -c 1073741824" } }\n  - { id: oneline, exec: { type: command, source: "head -c 1073741824 /dev/zero | tr '[:cntrl:]' x" } }\n`,
  );
  try {
    const base = await peakRss(['-e', '0'], dir);
    const floor = await peakRss(['-e', FLOOR, dir], dir);
    const wave = await peakRss([WAVE, 'run', 'big', '--output', 'quiet'], dir);
    return [
      'memory: peak RSS while steps print 1 GiB of short lines and one 1 GiB line',
      `  node -e 0: ${base.toFixed(0)} MB   node piping the same output into files: ${floor.toFixed(0)} MB`,
      `  wave run: ${wave.toFixed(0)} MB (goal ≤ 100)   ratio ${(wave / base).toFixed(2)} to node -e 0, ${(wave / floor).toFixed(2)} to the pipe`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
