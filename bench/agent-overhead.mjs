// Agent overhead: one Claude Code step through `wave run` against the scripted model server, against the same
// `claude -p` command run directly against it, both as cold processes in this run. Goal: Wave's extra time is at
// most one node start-up (`node -e 0`, measured in the same run). The run's own events split Wave's part: what it did
// between recording the run and starting the CLI, and between the CLI's exit and the run's end; the rest is start-up.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer } from '../test/support/model-server.mjs';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const CLAUDE = fileURLToPath(new URL('../node_modules/.bin/claude', import.meta.url));
const ROUNDS = 5;

// Asynchronous on purpose: the model server answers from this same process.
function timedRun(command, args, options, input) {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'] });
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`${command} exited ${code}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Milliseconds the newest run under `dir` spent around its one attempt: run_created → attempt_spawned, attempt_finished → run_finished. */
function aroundAttempt(dir) {
  const runs = join(dir, '.wave', 'runs');
  const newest = readdirSync(runs).sort().at(-1);
  const events = readFileSync(join(runs, newest, 'events.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const at = (type) => Date.parse(events.findLast((event) => event.type === type).ts);
  return at('attempt_spawned') - at('run_created') + (at('run_finished') - at('attempt_finished'));
}

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  if (!existsSync(CLAUDE)) return ['agent-overhead: skipped: Claude Code is not installed (npm install --save-dev @anthropic-ai/claude-code)'];
  const server = await startModelServer();
  const dir = mkdtempSync(join(tmpdir(), 'wave-bench-agent-'));
  const baseUrl = `${server.url}/s/text`;
  const quiet = { DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_MAX_RETRIES: '1' };
  writeFileSync(
    join(dir, 'wave.yaml'),
    `kind: WaveManifest\nmetadata: { name: bench }\nadapters:\n  claude: { type: claude, binary: ${CLAUDE}, model: claude-test, base_url: "${baseUrl}", env: { ANTHROPIC_API_KEY: fake-key, CLAUDE_CONFIG_DIR: ${join(dir, 'home')} } }\npersonas:\n  agent: { adapter: claude }\n`,
  );
  mkdirSync(join(dir, 'pipelines'));
  writeFileSync(
    join(dir, 'pipelines', 'one.yaml'),
    'kind: WavePipeline\nmetadata: { name: one }\nsteps:\n  - { id: ask, persona: agent, exec: { type: prompt, source: "Say hello." } }\n',
  );
  const workspace = join(dir, 'direct');
  mkdirSync(workspace);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    ...quiet,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'fake-key',
    CLAUDE_CONFIG_DIR: join(dir, 'home'),
    IS_SANDBOX: '1',
  };
  const direct = [];
  const wave = [];
  const nodeStart = [];
  const around = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      const args = ['-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions', '--model', 'claude-test'];
      direct.push(await timedRun(CLAUDE, args, { cwd: workspace, env }, 'Say hello.'));
      wave.push(await timedRun(process.execPath, [WAVE, 'run', 'one', '--output', 'quiet'], { cwd: dir }));
      around.push(aroundAttempt(dir));
      nodeStart.push(await timedRun(process.execPath, ['-e', '0'], { cwd: dir }));
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const d = median(direct);
  const w = median(wave);
  const n = median(nodeStart);
  const a = median(around);
  return [
    `agent-overhead: one Claude Code step against the scripted model server, median of ${ROUNDS}`,
    `  claude -p directly: ${d.toFixed(0)} ms   wave run: ${w.toFixed(0)} ms   ratio ${(w / d).toFixed(2)}`,
    `  Wave's extra: ${(w - d).toFixed(0)} ms (goal ≤ one \`node -e 0\`: ${n.toFixed(0)} ms)`,
    `  of which Wave's work around the attempt (its events, run recorded → CLI started, CLI ended → run finished): ${a} ms; the rest is the CLI's start-up and what it does before it records the run (loading, checks)`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
