// Tracing's cost: 200 no-op command steps at width 8 through `wave run`, with the trace only written to otel.jsonl
// (the baseline, every run does it) and also sent live to a loopback OTLP/HTTP collector, in the same process order.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, noopProject } from './overhead.mjs';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const STEPS = 200;
const ROUNDS = 3;

/** A collector on 127.0.0.1 that answers 200 and counts the spans it got. */
async function collector() {
  let spans = 0;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      spans += body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).length;
      response.writeHead(200).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, spans: () => spans, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Wall time in ms of one cold `wave run` (asynchronous: the collector answers in this process). */
function waveRun(dir, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [WAVE, 'run', 'noop', '--output', 'quiet'], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`wave run exited ${code}: ${stderr.slice(-300)}`))));
  });
}

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  const root = mkdtempSync(join(tmpdir(), 'wave-bench-trace-'));
  const server = await collector();
  try {
    const dir = noopProject(join(root, 'p'), STEPS);
    const off = [];
    const on = [];
    for (let round = 0; round < ROUNDS; round++) {
      off.push(await waveRun(dir, {}));
      on.push(await waveRun(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: server.url }));
    }
    const [offMs, onMs] = [median(off), median(on)];
    const perRun = server.spans() / ROUNDS;
    return [
      `trace: ${STEPS} no-op steps, otel.jsonl only: ${(offMs / 1000).toFixed(2)} s; also sent live to a loopback collector: ${(onMs / 1000).toFixed(2)} s (×${(onMs / offMs).toFixed(2)}, ${perRun} spans a run)`,
    ];
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
