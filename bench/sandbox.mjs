// Sandbox cost: the same pipeline of no-op command steps run unsandboxed, in bubblewrap and in Docker, in this run;
// the difference per step is each backend's overhead (goals: bubblewrap ≤ 10 ms, docker ≤ 150 ms). Then one real
// Claude Code step against the scripted model server in each backend, as a ratio to the unsandboxed step.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer } from '../test/support/model-server.mjs';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const CLAUDE = fileURLToPath(new URL('../node_modules/.bin/claude', import.meta.url));
const STEPS = 20;
const ROUNDS = 3;
const BACKENDS = ['none', 'bubblewrap', 'docker'];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Asynchronous on purpose: the model server answers from this same process.
function timedWave(cwd, pipeline) {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WAVE, 'run', pipeline, '--output', 'quiet'], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`wave run ${pipeline} exited ${code}: ${stderr.trim()}`))));
  });
}

/** Why a backend cannot run here, or undefined when it can. */
function unavailable(backend) {
  if (backend === 'none') return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'wave-bench-probe-'));
  writeFileSync(join(dir, 'wave.yaml'), `kind: WaveManifest\nmetadata: { name: probe }\nruntime: { sandbox: { backend: ${backend} } }\n`);
  const doctor = spawnSync(process.execPath, [WAVE, 'doctor', '--json'], { cwd: dir, encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  const status = JSON.parse(doctor.stdout).sandboxes.find((s) => s.backend === backend);
  return status.usable ? undefined : status.problem;
}

function project(backend, adapterLines) {
  const dir = mkdtempSync(join(tmpdir(), `wave-bench-sandbox-${backend}-`));
  writeFileSync(join(dir, 'wave.yaml'), `kind: WaveManifest\nmetadata: { name: bench }\n${adapterLines}runtime:\n  max_concurrency: 1\n  sandbox: { backend: ${backend} }\n`);
  mkdirSync(join(dir, 'pipelines'));
  const steps = Array.from({ length: STEPS }, (_, i) => `  - { id: s${i}, exec: { type: command, source: "true" } }\n`).join('');
  writeFileSync(join(dir, 'pipelines', 'noop.yaml'), `kind: WavePipeline\nmetadata: { name: noop }\nsteps:\n${steps}`);
  writeFileSync(
    join(dir, 'pipelines', 'claude.yaml'),
    'kind: WavePipeline\nmetadata: { name: claude }\nsteps:\n  - { id: ask, persona: agent, exec: { type: prompt, source: "Say hello." } }\n',
  );
  return dir;
}

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  const server = await startModelServer();
  const claude = existsSync(CLAUDE)
    ? `adapters:\n  claude: { type: claude, binary: ${CLAUDE}, model: claude-test, isolated: true, base_url: "${server.url}/s/text", env: { ANTHROPIC_API_KEY: fake-key } }\npersonas:\n  agent: { adapter: claude }\n`
    : '';
  const lines = [`sandbox: ${STEPS} no-op command steps one at a time, then one Claude Code step; median of ${ROUNDS} runs each`];
  const results = {};
  try {
    for (const backend of BACKENDS) {
      const why = unavailable(backend);
      if (why) {
        lines.push(`  ${backend}: skipped: ${why}`);
        continue;
      }
      const dir = project(backend, claude);
      const noop = [];
      const agent = [];
      for (let i = 0; i < ROUNDS; i++) {
        noop.push(await timedWave(dir, 'noop'));
        if (claude) agent.push(await timedWave(dir, 'claude'));
      }
      rmSync(dir, { recursive: true, force: true });
      results[backend] = { noop: median(noop), agent: claude ? median(agent) : undefined };
    }
  } finally {
    await server.close();
  }
  const base = results.none;
  for (const backend of BACKENDS) {
    const r = results[backend];
    if (!r) continue;
    const perStep = (r.noop - base.noop) / STEPS;
    const goal = backend === 'bubblewrap' ? ' (goal ≤ 10 ms)' : backend === 'docker' ? ' (goal ≤ 150 ms)' : '';
    const overhead = backend === 'none' ? '' : `, ${perStep.toFixed(1)} ms per step over unsandboxed${goal}`;
    const agent = r.agent === undefined ? '' : `; Claude step ${r.agent.toFixed(0)} ms${backend === 'none' ? '' : `, ratio ${(r.agent / base.agent).toFixed(2)}`}`;
    lines.push(`  ${backend}: ${r.noop.toFixed(0)} ms${overhead}${agent}`);
  }
  if (!claude) lines.push('  Claude step skipped: Claude Code is not installed (npm install --save-dev @anthropic-ai/claude-code)');
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
