import { execa } from 'execa';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cutMarker, STORED_OUTPUT_BYTES } from '../../src/stream/stored-output-cap.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { WAVE_BIN, runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('faults a run must survive', () => {
  it('keeps planted secrets out of the child environment and out of every stored file', async () => {
    const passed = 'pass-through-secret-value-4711';
    const hidden = 'not-passed-secret-value-0815';
    const project = makeProject({
      'wave.yaml': `kind: WaveManifest
metadata: { name: t }
runtime: { sandbox: { env_passthrough: [SERVICE_TOKEN] } }
`,
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - id: leak
    exec: { type: command, source: "env; echo token=$SERVICE_TOKEN; echo bearer Bearer abcdefghijklmnopqrstuvwx >&2; echo $SERVICE_TOKEN > out.txt" }
    output_artifacts: [{ name: out, path: out.txt }]
`,
    });
    const result = await runWave(['run', 'p', '--output', 'json'], {
      cwd: project,
      env: { SERVICE_TOKEN: passed, PRIVATE_KEY_MATERIAL: hidden },
    });
    expect(result.code).toBe(0);
    const runDir = join(project, '.wave', 'runs', latestRun(project).id);
    const stdout = readFileSync(join(runDir, 'steps', 'leak', 'attempt-1', 'stdout'), 'utf8');
    // The child saw the passthrough variable (its line is there, redacted) and not the other one.
    expect(stdout).toContain('token=[REDACTED]');
    expect(stdout).not.toContain('PRIVATE_KEY_MATERIAL');
    expect(readFileSync(join(runDir, 'steps', 'leak', 'attempt-1', 'stderr'), 'utf8')).toContain('[REDACTED]');
    const logs = filesUnder(runDir).filter((f) => !f.includes(`${join('artifacts', '')}`));
    expect(logs.length).toBeGreaterThan(3);
    for (const file of logs) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain(passed);
      expect(text, file).not.toContain(hidden);
      expect(text, file).not.toContain('abcdefghijklmnopqrstuvwx');
    }
    expect(result.stdout).not.toContain(passed);
  });

  it('completes when a step prints a 20 MB line and another prints 1 GiB, with flat memory', async () => {
    const project = makeProject({
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - id: long-line
    exec: { type: command, source: "head -c 20971520 /dev/zero | tr '[:cntrl:]' x; echo; echo after" }
  - id: gigabyte
    exec: { type: command, source: "yes 0123456789abcdef | head -c 1073741824" }
`,
    });
    // The run keeps the gibibyte it was given: left behind, each run of the suite would fill the disk by as much.
    onTestFinished(() => rmSync(project, { recursive: true, force: true }));
    const child = execa(process.execPath, [WAVE_BIN, 'run', 'p', '--output', 'quiet'], { cwd: project, reject: false, stdin: 'ignore' });
    let peakKb = 0;
    const sampler = setInterval(() => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peakKb = Math.max(peakKb, kb);
      } catch {
        // Exited between samples.
      }
    }, 50);
    const result = await child;
    clearInterval(sampler);
    expect(result.exitCode).toBe(0);
    const run = latestRun(project);
    const runDir = join(project, '.wave', 'runs', run.id);
    // Every byte was read; the first 100 MiB are stored, then a line says where the rest was cut.
    const gib = 1073741824;
    const marker = cutMarker('stdout', STORED_OUTPUT_BYTES, gib - STORED_OUTPUT_BYTES);
    expect(statSync(join(runDir, 'steps', 'gigabyte', 'attempt-1', 'stdout')).size).toBe(STORED_OUTPUT_BYTES + Buffer.byteLength(marker));
    expect(readFileSync(join(runDir, 'steps', 'long-line', 'attempt-1', 'stdout'), 'utf8').endsWith('\nafter\n')).toBe(true);
    // A memory bound, not a speed one: streaming keeps the executor far below the output size.
    expect(peakKb).toBeGreaterThan(0);
    expect(peakKb / 1024).toBeLessThan(200);
  });
});
