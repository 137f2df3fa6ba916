// Peak RSS of `wave run` while one command step prints 1 GiB to stdout, against the peak RSS of
// `node -e 0` in the same run; the goal is a flat executor (≤ 150 MB).
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
    const wave = await peakRss([WAVE, 'run', 'big', '--output', 'quiet'], dir);
    return [
      'memory: peak RSS while steps print 1 GiB of short lines and one 1 GiB line',
      `  node -e 0: ${base.toFixed(0)} MB   wave run: ${wave.toFixed(0)} MB (goal ≤ 150)   ratio ${(wave / base).toFixed(2)}`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
