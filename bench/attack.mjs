// Issue 11's attacks on `wave run`, repeatable: each one is staged against the built CLI (backend none, command steps,
// throwaway projects under the OS temp folder) and reports what got through, next to its goal. A non-zero figure is a
// finding and is printed like any other; bench() throws only when an attack could not be staged at all, and then its
// message carries the whole report. Every folder, mount and process an attack made is undone before the next one.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { collectArtifacts } from '../dist/engine/artifacts/artifacts.js';
import { FLIPPER, PAYLOADS, QUOTED_COMMANDS, UNEXPANDED_TEMPLATES } from '../test/support/attacks.mjs';
import {
  NODE,
  cannotMount,
  WAVE,
  carrying,
  figure,
  filesUnder,
  made,
  manifest,
  marker,
  mountTmpfs,
  occurrences,
  pipeline,
  poll,
  processes,
  project,
  readEvents,
  readIf,
  readRecord,
  remount,
  runAttacks,
  runDirs,
  runWave,
  sleep,
  start,
  startWave,
  step,
  tempDir,
  unmountAll,
  waitFor,
  writeFiles,
} from './attack-harness.mjs';

// ---------------------------------------------------------------------------------------------------------------
// kill -9 at 20 points, then resume

const KILLS = 20;
/** a, then b and c in parallel, then d: each logs its start, sleeps, and writes an artifact from its inputs. */
const CHAIN = [
  ['a', [], 0.1],
  ['b', ['a'], 0.2],
  ['c', ['a'], 0.3],
  ['d', ['b', 'c'], 0.4],
];
const expectedArtifact = (id) =>
  CHAIN.find(([s]) => s === id)[1]
    .map(expectedArtifact)
    .join('') + `${id.toUpperCase()}\n`;

function chainProject() {
  const dir = project();
  const log = join(dir, 'steps.log');
  const steps = CHAIN.map(([id, deps, seconds]) => {
    const write = deps.length ? `cat ${deps.map((d) => `{{ artifacts.${d} }}`).join(' ')} > ${id}.txt; ` : '';
    return step(id, {
      deps,
      command: `echo ${id} >> "$LOG"; sleep ${seconds}; ${write}echo ${id.toUpperCase()} >> ${id}.txt`,
      more: [
        `env: { LOG: ${JSON.stringify(log)} }`,
        ...(deps.length ? [`memory: { inject_artifacts: [${deps.map((d) => `{ step: ${d}, artifact: ${d} }`).join(', ')}] }`] : []),
        `output_artifacts: [{ name: ${id}, path: ${id}.txt }]`,
      ],
    });
  });
  writeFiles(dir, { 'pipelines/chain.yaml': pipeline('chain', ...steps) });
  return { dir, log };
}

/** How many times each step started, from the log the steps append to. */
function starts(log) {
  const counts = {};
  for (const id of (readIf(log) ?? '').split('\n').filter(Boolean)) counts[id] = (counts[id] ?? 0) + 1;
  return counts;
}

/** Each attempt's pid file (written by Wave) by `<step>/attempt-<n>`. */
function pidFiles(runDir) {
  const pids = new Map();
  for (const file of filesUnder(join(runDir, 'steps'))) if (basename(file) === 'pid') pids.set(file.split('/').slice(-3, -1).join('/'), readFileSync(file, 'utf8'));
  return pids;
}

/** Attempts whose number was used twice: two step_started events or two run.json attempts alike, or a pid file rewritten. */
function reusedAttempts(runDir, pidsAtKill) {
  const reused = new Set();
  const mark = (keys) => keys.forEach((key, i) => keys.indexOf(key) !== i && reused.add(key));
  mark(
    readEvents(runDir)
      .filter((e) => e.type === 'step_started')
      .map((e) => `${e.stepId}/attempt-${e.attempt}`),
  );
  for (const [id, s] of Object.entries(readRecord(runDir)?.steps ?? {})) mark(s.attempts.map((a) => `${id}/attempt-${a.attempt}`));
  const now = pidFiles(runDir);
  for (const [key, pid] of pidsAtKill) if (now.get(key) !== pid) reused.add(key);
  return reused.size;
}

/** Starts the chain and resolves once its run folder exists, with the `wave run` process and its end. */
async function startChain() {
  const { dir, log } = chainProject();
  const wave = startWave(dir, ['run', 'chain', '--output', 'quiet']);
  const runDir = await waitFor(() => runDirs(dir)[0], 'the run folder');
  return { dir, log, runDir, ...wave };
}

/** Kill -9s `wave run` of the chain `delayMs` after its run folder appears, resumes the run, and counts what went wrong. */
async function killAndResume(delayMs) {
  const { dir, log, runDir, child, done } = await startChain();
  await sleep(delayMs);
  child.kill('SIGKILL');
  if ((await done).signal !== 'SIGKILL') return { outcome: 'finished before the kill' };
  const runId = basename(runDir);
  const atKill = { record: readRecord(runDir), starts: starts(log), pids: pidFiles(runDir), processes: carrying(runId).length };
  const resumed = await runWave(dir, ['resume', runId, '--output', 'quiet']);
  const orphans = carrying(runId).length;
  const after = starts(log);
  const completedAtKill = Object.entries(atKill.record?.steps ?? {})
    .filter(([, s]) => s.status === 'completed')
    .map(([id]) => id);
  return {
    outcome: Object.values(atKill.record?.steps ?? {}).some((s) => s.status === 'running') ? 'mid-step' : 'between steps',
    completed: resumed.code === 0 && readRecord(runDir)?.status === 'completed',
    lost: CHAIN.filter(([id]) => readIf(join(runDir, 'artifacts', id, `${id}.txt`)) !== expectedArtifact(id)).length,
    rerun: completedAtKill.filter((id) => after[id] > atKill.starts[id]).length,
    reused: reusedAttempts(runDir, atKill.pids),
    leftByKill: atKill.processes,
    orphans,
  };
}

async function killNine() {
  // An uninterrupted run first: the kills are spread over it, from its run folder appearing to shortly before its end.
  const baseline = await startChain();
  const started = Date.now();
  const { code, stderr } = await baseline.done;
  if (code !== 0) throw new Error(`the uninterrupted run exited ${code}: ${stderr.trim()}`);
  const runMs = Date.now() - started;
  const span = runMs * 0.95;

  const results = [];
  for (let i = 0; i < KILLS; i++) results.push(await killAndResume((i * span) / KILLS));
  const resumed = results.filter((r) => 'completed' in r);
  const sum = (key) => resumed.reduce((total, r) => total + r[key], 0);
  const outcomes = [...new Set(results.map((r) => r.outcome))].map((outcome) => `${results.filter((r) => r.outcome === outcome).length} ${outcome}`);
  return [
    `kill -9 at ${KILLS} points over a ${runMs} ms run of 4 steps (two parallel), then resume:`,
    `${figure('artifacts lost', sum('lost'))}, ${figure('completed steps re-run', sum('rerun'))},`,
    `${figure('attempt numbers reused', sum('reused'))}, ${figure('orphans', sum('orphans'))} of ${sum('leftByKill')} step processes the kills left running;`,
    `kills: ${outcomes.join(', ')}; resumes completed ${resumed.filter((r) => r.completed).length} of ${resumed.length}`,
  ].join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// Injection payloads across every step form

/** A process adapter that is no shell: writes its argument (or stdin, for "-") to `got`. */
const CATCHER = `import { readFileSync, writeFileSync } from 'node:fs';
writeFileSync('got', process.argv[2] === '-' ? readFileSync(0, 'utf8') : process.argv[2]);
`;

const CATCHER_ADAPTERS = `adapters:
  arg: { type: process, binary: ${JSON.stringify(NODE)}, args: [catcher.mjs, "{{prompt}}"] }
  stdin: { type: process, binary: ${JSON.stringify(NODE)}, args: [catcher.mjs, "-"] }
`;

const dropTrailingNewlines = (v) => v.replace(/\n+$/, ''); // command substitution's own rule, not an injection
const adapterStep = (adapter) => (ref) => ({ exec: { type: 'prompt', source: ref }, more: [`adapter: ${adapter}`, 'workspace: { mount: [{ source: catcher.mjs }] }'] });

/** Each form a value takes into a step, and what the step receives when the value is `v`. */
const FORMS = [
  { name: 'bare', step: (ref) => ({ command: `printf '%s' ${ref} > got` }), expected: (v) => v },
  { name: 'backticks', step: (ref) => ({ command: `v=\`printf '%s' ${ref}\`; printf '%s' "$v" > got` }), expected: dropTrailingNewlines },
  { name: 'subst', step: (ref) => ({ command: `v="$(printf '%s' ${ref})"; printf '%s' "$v" > got` }), expected: dropTrailingNewlines },
  { name: 'default', step: (ref) => ({ command: `printf '%s' "\${UNSET_NAME:-${ref}}" > got` }), expected: (v) => v },
  { name: 'arg', step: adapterStep('arg'), expected: (v) => v },
  { name: 'stdin', step: adapterStep('stdin'), expected: (v) => v },
  ...QUOTED_COMMANDS.map(({ name, command, expected }) => ({ name, step: (ref) => ({ command: command(ref) }), expected })),
];
const SOURCES = [
  ['input', '{{ input }}', []],
  ['output', '{{ steps.gen.output }}', ['gen']],
];

/** gen prints the payload (and a newline, which output values drop); then one step per form and source. */
function injectionPipeline() {
  const gen = step('gen', { command: 'cat payload.txt; echo', more: ['workspace: { mount: [{ source: payload.txt }] }'] });
  const uses = FORMS.flatMap((form) => SOURCES.map(([source, ref, deps]) => step(`${form.name}-${source}`, { deps, ...form.step(ref) })));
  return pipeline('p', gen, ...uses);
}

const pwned = (dir) => filesUnder(dir).filter((file) => basename(file) === 'PWNED').length;

async function injection() {
  const manifestText = manifest({ adapters: CATCHER_ADAPTERS });
  let created = 0;
  let intact = 0;
  let cases = 0;
  for (const payload of PAYLOADS) {
    const dir = project({ 'pipelines/p.yaml': injectionPipeline(), 'payload.txt': payload, 'catcher.mjs': CATCHER }, manifestText);
    await runWave(dir, ['run', 'p', '--input', payload, '--keep-workspaces', '--output', 'quiet']);
    const [runDir] = runDirs(dir);
    const record = runDir && readRecord(runDir);
    for (const form of FORMS) {
      for (const [source] of SOURCES) {
        cases++;
        const workspace = record?.steps[`${form.name}-${source}`]?.workspace;
        if (workspace && readIf(join(workspace, 'got')) === form.expected(payload)) intact++;
      }
    }
    created += pwned(dir);
  }
  let refused = 0;
  for (const template of UNEXPANDED_TEMPLATES) {
    const dir = project({ 'pipelines/p.yaml': pipeline('p', step('gen', { command: `printf '%s' '$(touch PWNED)'` }), step('use', { deps: ['gen'], command: template })) });
    const result = await runWave(dir, ['run', 'p', '--input', PAYLOADS[0], '--output', 'quiet']);
    if (result.code === 2 && result.stderr.includes('template_invalid') && runDirs(dir).length === 0) refused++;
    created += pwned(dir);
  }
  return [
    `injection, ${PAYLOADS.length} payloads × ${FORMS.length} step forms (${FORMS.length - 2} command templates, ${QUOTED_COMMANDS.length} of them in quotes or heredocs; 2 process adapter prompts) × ${SOURCES.length} sources (--input, a previous step's output):`,
    `${figure('files created by payloads', created)};`,
    `values delivered intact ${intact} of ${cases} (goal ${cases}), templates where the shell expands nothing (<<'EOF', $'…') refused before any step ${refused} of ${UNEXPANDED_TEMPLATES.length} (goal ${UNEXPANDED_TEMPLATES.length})`,
  ].join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// The symlink race

const COLLECTIONS = 200;
const BENIGN = 'benign artifact content\n';

async function symlinkRace() {
  const dir = tempDir();
  const workspace = join(dir, 'workspace');
  writeFiles(workspace, { 'folder/passwd': BENIGN });
  start(NODE, ['-e', FLIPPER, workspace], { cwd: dir });
  await waitFor(() => existsSync(join(workspace, 'd')), 'the flipper to flip');
  const tally = { copied: 0, refused: 0, leaked: 0, other: 0 };
  const collectOnce = async (run) => {
    const destDir = join(dir, 'runs', String(run));
    // A file through the flipped folder, and the flipped folder itself, in turns.
    const def = run % 2 === 0 ? { name: 'file', path: 'd/passwd' } : { name: 'folder', path: 'd' };
    try {
      const { missing } = await collectArtifacts({ workspace, defs: [def], destDir });
      tally[missing.length ? 'other' : 'copied']++;
    } catch (error) {
      tally[error?.code === 'artifact_path_invalid' ? 'refused' : 'other']++;
    }
    // Whatever the outcome, the stored copy holds the workspace's file or nothing: never a byte of /etc.
    if (filesUnder(destDir).some((file) => readFileSync(file, 'utf8') !== BENIGN)) tally.leaked++;
  };
  // Four at a time, as a run's parallel steps would collect.
  for (let run = 0; run < COLLECTIONS; run += 4) await Promise.all([0, 1, 2, 3].map((i) => collectOnce(run + i)));
  return [
    `symlink race, ${COLLECTIONS} artifact collections while a daemon flips a workspace folder to /etc and back:`,
    `${figure('leaks', tally.leaked)}, ${figure('other outcomes', tally.other)}; ${tally.copied} copied the workspace file, ${tally.refused} refused as artifact_path_invalid`,
  ].join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// Planted secrets across output modes

// URL-special characters, so that each URL-encoded form differs from its value.
const SECRETS = { BENCH_EXPANDED: 'planted-Exp4nded+secret=x&y/z', BENCH_PASSED: 'planted-P4ssed+secret=a&b/c' };
const NEEDLES = Object.values(SECRETS).flatMap((value) => [value, encodeURIComponent(value)]);
const PRINT_ENCODED = `${JSON.stringify(NODE)} -e 'console.log("encoded=" + encodeURIComponent(process.argv[1]))'`;

/** The secrets reach the steps through `${VAR}` (step env and the command text) and env_passthrough. */
const SECRETS_PIPELINE = pipeline(
  'p',
  step('leak', {
    command: `for v in "$EXPANDED" "$BENCH_PASSED"; do echo "stdout=$v"; echo "stderr=$v" >&2; ${PRINT_ENCODED} "$v" | tee -a secrets.txt; echo "raw=$v" >> secrets.txt; done`,
    more: ['env: { EXPANDED: "${BENCH_EXPANDED}" }', 'output_artifacts: [{ name: secrets, path: secrets.txt }]'],
  }),
  step('literal', { command: "echo 'literal=${BENCH_EXPANDED}'" }),
  step('fails', { command: 'echo "failed with $EXPANDED and $BENCH_PASSED" >&2; exit 3', more: ['env: { EXPANDED: "${BENCH_EXPANDED}" }'] }),
);

/** Where a file of a run folder belongs among the places the secrets are looked for. */
function place(runDir, file) {
  const rel = file.slice(runDir.length + 1);
  if (rel.startsWith('artifacts/')) return 'artifacts';
  if (rel === 'run.json' || rel === 'events.ndjson') return rel;
  if (basename(rel) === 'output.txt') return 'output.txt';
  if (/\/attempt-\d+\/std(out|err)$/.test(rel)) return 'attempt stdout/stderr';
  return 'other run files';
}

async function secrets() {
  const dir = project({ 'pipelines/p.yaml': SECRETS_PIPELINE }, manifest({ passthrough: ['BENCH_PASSED'] }));
  const outputs = {
    text: await runWave(dir, ['run', 'p', '--output', 'text', '--on-failure', 'continue', '--keep-workspaces'], SECRETS),
    '--json': await runWave(dir, ['run', 'p', '--json', '--on-failure', 'continue', '--keep-workspaces'], SECRETS),
    '--dry-run': await runWave(dir, ['run', 'p', '--dry-run'], SECRETS),
  };
  const found = new Map(['text', '--json', '--dry-run', 'run.json', 'events.ndjson', 'output.txt', 'attempt stdout/stderr', 'artifacts'].map((where) => [where, 0]));
  const tally = (where, text) => found.set(where, (found.get(where) ?? 0) + NEEDLES.reduce((n, needle) => n + occurrences(text, needle), 0));
  for (const [mode, result] of Object.entries(outputs)) tally(mode, result.stdout + result.stderr);
  const runs = runDirs(dir);
  for (const runDir of runs) for (const file of filesUnder(runDir)) tally(place(runDir, file), readFileSync(file, 'utf8'));
  // The check means something only if the steps had the values: the workspace file (never redacted) holds them raw.
  const workspaces = runs.map((runDir) => readRecord(runDir)?.steps.leak?.workspace).filter(Boolean);
  const reached = workspaces.filter((ws) => Object.values(SECRETS).every((v) => readIf(join(ws, 'secrets.txt'))?.includes(v))).length;
  const total = [...found.values()].reduce((a, b) => a + b, 0);
  const where = [...found].filter(([, n]) => n > 0).map(([p, n]) => `${p} ${n}`);
  return [
    `planted secrets (a \${VAR} value and a passthrough value, raw and URL-encoded) in ${[...found.keys()].join(', ')}:`,
    `${figure('raw occurrences', total)}${where.length ? ` (${where.join(', ')})` : ''};`,
    `runs whose steps held both secrets ${reached} of ${runs.length} (goal ${runs.length})`,
  ].join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// Signals and `wave cancel` against a step with a setsid'd daemon and a double-forked child

const STOPS = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGQUIT', 131],
  ['wave cancel', 143],
];

async function stopRun(how, goal) {
  const [daemon, forked] = [marker(), marker()];
  const quiet = '> /dev/null 2>&1 < /dev/null';
  const dir = project({ 'pipelines/p.yaml': pipeline('p', step('step', { command: `setsid sleep ${daemon} ${quiet} & (sleep ${forked} ${quiet} &) ; sleep 60` })) });
  const { child, done } = startWave(dir, ['run', 'p', '--output', 'text']);
  const isEscapee = (p) => p.cmdline === `sleep ${daemon}` || p.cmdline === `sleep ${forked}`;
  await waitFor(() => processes().filter(isEscapee).length === 2, 'the step to start its daemon and its double-forked child');
  const runDir = runDirs(dir)[0];
  if (how === 'wave cancel') await runWave(dir, ['cancel', basename(runDir)]);
  else child.kill(how);
  const result = await done;
  const left = processes().filter((p) => isEscapee(p) || p.environ.includes(`WAVE_RUN_ID=${basename(runDir)}`)).length;
  return { left, cancelled: readRecord(runDir)?.status === 'cancelled', exit: `${how} ${result.code ?? result.signal} (goal ${goal})` };
}

async function signals() {
  const results = [];
  for (const [how, goal] of STOPS) results.push(await stopRun(how, goal));
  return [
    `SIGINT, SIGTERM, SIGHUP, SIGQUIT and \`wave cancel\` during a step that started a setsid'd daemon and a double-forked child:`,
    `${figure(
      'processes left',
      results.reduce((n, r) => n + r.left, 0),
    )}; ${figure('runs recorded cancelled', results.filter((r) => r.cancelled).length, results.length)};`,
    `exit codes ${results.map((r) => r.exit).join(', ')}`,
  ].join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// 5 concurrent resumes of one killed run

const RESUMES = 5;

async function concurrentResumes() {
  const dir = project();
  const [go, barrier] = [join(dir, 'go'), join(dir, 'barrier')];
  // b runs until the file `go` exists, so the resumes race while it is running.
  writeFiles(dir, {
    'pipelines/long.yaml': pipeline('long', step('a', { command: 'echo A' }), step('b', { deps: ['a'], command: `while [ ! -f ${go} ]; do sleep 0.1; done; echo B` })),
  });
  const { child, done } = startWave(dir, ['run', 'long', '--output', 'quiet']);
  await waitFor(() => runDirs(dir)[0] && existsSync(join(runDirs(dir)[0], 'steps', 'b', 'attempt-1', 'pid')), 'step b to start');
  child.kill('SIGKILL');
  await done;
  const runId = basename(runDirs(dir)[0]);
  // Each waits at a barrier, then execs Wave (keeping its pid) at the same moment as the others.
  const script = 'while [ ! -f "$1" ]; do sleep 0.01; done; exec "$2" "$3" resume "$4" --output text';
  const resumes = Array.from({ length: RESUMES }, () => {
    const { done: finished } = start('sh', ['-c', script, 'sh', barrier, NODE, WAVE, runId], { cwd: dir });
    const state = { finished, over: false };
    void finished.then(() => (state.over = true));
    return state;
  });
  writeFileSync(barrier, '');
  await poll(() => resumes.filter((r) => r.over).length >= RESUMES - 1, 30_000);
  writeFileSync(go, '');
  const results = await Promise.all(resumes.map((r) => r.finished));
  const owners = results.filter((r) => r.code === 0).map((r) => r.pid);
  const refused = results.filter((r) => r.code === 2 && owners.some((pid) => new RegExp(`\\bpid ${pid}\\b`).test(r.stderr)));
  return [
    `${RESUMES} concurrent \`wave resume\`s of one killed run:`,
    `${figure('proceeded', owners.length, 1)}, ${figure('refused with exit 2 naming the owner', refused.length, RESUMES - 1)};`,
    `exits ${results.map((r) => r.code ?? r.signal).join(', ')}; run ${readRecord(runDirs(dir)[0])?.status}`,
  ].join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// A full disk and a read-only run folder

/** Fills the file system holding `dir` to the last byte; returns the filler file. */
function fill(dir) {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  try {
    for (const chunk = Buffer.alloc(16 * 1024, 1); ;) writeSync(fd, chunk);
  } catch (error) {
    if (error.code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

/** A project whose run folder is a fresh 1 MiB tmpfs, with a pipeline for each moment a fault can come. */
function faultProject() {
  const dir = project();
  const [waited, go, fixed] = ['waited', 'go', 'fixed'].map((name) => join(dir, name));
  // The first time, b says it waits, then waits (its output files open) until the bench has broken the disk.
  const waitOnce = `if [ ! -e ${waited} ]; then touch ${waited}; echo waiting; while [ ! -e ${go} ]; do sleep 0.05; done; fi; echo done`;
  writeFiles(dir, {
    'pipelines/start.yaml': pipeline('start', step('a', { command: 'echo a' })),
    'pipelines/big.yaml': pipeline(
      'big',
      step('a', { command: 'echo a' }),
      step('b', { deps: ['a'], command: 'yes 0123456789abcdef | head -c 3000000' }),
      step('c', { deps: ['b'], command: 'echo c' }),
    ),
    'pipelines/ro.yaml': pipeline('ro', step('a', { command: 'echo a' }), step('b', { deps: ['a'], command: waitOnce }), step('c', { deps: ['b'], command: 'echo c' })),
    'pipelines/flaky.yaml': pipeline('flaky', step('a', { command: 'echo a' }), step('b', { deps: ['a'], command: `test -e ${fixed}` })),
  });
  const runs = join(dir, '.wave', 'runs');
  mountTmpfs(runs);
  const wave = (...args) => runWave(dir, [...args, '--output', 'text']);
  return { runs, go, fixed, wave, resume: () => wave('resume', basename(runDirs(dir, runs)[0])) };
}

/** Each fault: what Wave printed when it met it, then the run or resume that finishes once the disk is back. */
const DISK_FAULTS = [
  [
    'full at start',
    async (p) => {
      const filler = fill(p.runs);
      const hit = await p.wave('run', 'start');
      rmSync(filler);
      return [hit, await p.wave('run', 'start')];
    },
  ],
  [
    'read-only at start',
    async (p) => {
      remount(p.runs, 'ro');
      const hit = await p.wave('run', 'start');
      remount(p.runs, 'rw');
      return [hit, await p.wave('run', 'start')];
    },
  ],
  [
    'full mid-run',
    async (p) => {
      const hit = await p.wave('run', 'big');
      remount(p.runs, 'size=16m');
      return [hit, await p.resume()];
    },
  ],
  [
    'read-only mid-run',
    async (p) => {
      const running = p.wave('run', 'ro');
      await waitFor(() => filesUnder(p.runs).some((f) => f.endsWith('/steps/b/attempt-1/stdout') && readFileSync(f, 'utf8').includes('waiting')), 'step b to wait');
      // A read-only mount bound over the run folder: what Wave opens from now on is refused with EROFS.
      execFileSync('mount', ['--bind', p.runs, p.runs], { stdio: 'pipe' });
      remount(p.runs, 'bind,ro');
      writeFileSync(p.go, '');
      const hit = await running;
      execFileSync('umount', [p.runs], { stdio: 'pipe' }); // the read-only mount; the tmpfs below is writable
      return [hit, await p.resume()];
    },
  ],
  [
    'full during resume',
    (p) =>
      faultDuringResume(p, () => {
        const filler = fill(p.runs);
        return () => rmSync(filler);
      }),
  ],
  [
    'read-only during resume',
    (p) =>
      faultDuringResume(p, () => {
        remount(p.runs, 'ro');
        return () => remount(p.runs, 'rw');
      }),
  ],
];

/** A run that failed (b waits for `fixed`), fixed, then resumed on a disk broken by `breakDisk` (which returns its mend). */
async function faultDuringResume(p, breakDisk) {
  await p.wave('run', 'flaky');
  writeFileSync(p.fixed, '');
  const mend = breakDisk();
  let hit;
  try {
    hit = await p.resume();
  } finally {
    mend();
  }
  return [hit, await p.resume()];
}

async function diskFaults() {
  const why = cannotMount();
  if (why) return `full disk and read-only run folder: skipped: ${why}`;
  let traces = 0;
  let ioErrors = 0;
  let recovered = 0;
  const misses = [];
  for (const [name, stage] of DISK_FAULTS) {
    const [hit, again] = await stage(faultProject());
    const all = `${hit.stdout}\n${hit.stderr}`;
    const trace = /\n\s+at .+:\d+:\d+/.test(all) || /(^|\n)internal:/.test(all);
    const ioError = hit.code === 1 && /(^|\n)io_error: /.test(hit.stderr);
    traces += trace ? 1 : 0;
    ioErrors += ioError ? 1 : 0;
    recovered += again.code === 0 ? 1 : 0;
    if (trace || !ioError || again.code !== 0) misses.push(`${name}: exit ${hit.code}, then ${again.code}`);
    for (const dir of made.mounts.splice(0)) unmountAll(dir);
  }
  const n = DISK_FAULTS.length;
  return (
    [
      `full disk and read-only run folder (tmpfs), at start, mid-run and during resume:`,
      `${figure('stack traces', traces)}, ${figure('ended in io_error', ioErrors, n)}, ${figure('finished once space or permission was back', recovered, n)}`,
    ].join(' ') + (misses.length ? `; misses: ${misses.join('; ')}` : '')
  );
}

// ---------------------------------------------------------------------------------------------------------------

const ATTACKS = [
  ['kill -9', killNine],
  ['injection', injection],
  ['symlink race', symlinkRace],
  ['secrets', secrets],
  ['signals', signals],
  ['concurrent resumes', concurrentResumes],
  ['disk faults', diskFaults],
];

/** Runs every attack and returns its report lines. */
export async function bench() {
  return runAttacks("attack: issue 11's attacks on the built CLI (backend none, command steps); each figure with its goal", ATTACKS);
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
