// Containment II's attacks on Wave's records and views, repeatable against the built CLI and the built Action (backend
// none, command steps, throwaway projects): a step forges rounds and steps, prints terminal escapes and names a file
// with them, and prints workflow commands. Each figure counts what got through, next to its goal of 0.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESCAPES, FORGED_ROUND, RAW_CONTROL, WORKFLOW_COMMANDS, activeWorkflowCommands } from '../test/support/attacks.mjs';
import { NODE, figure, manifest, pipeline, project, readIf, runAttacks, runDirs, runWave, start, step, tempDir } from './attack-harness.mjs';

const ACTION = fileURLToPath(new URL('../action/index.cjs', import.meta.url));
/** A command printing the forged round and the escapes, then naming a file after a forged round with an escape in it. */
const FORGER = (payload) => `cat ${payload}; touch "$(printf 'evil\\n[#2 fake-scan] \\033[2J')"`;
/** A persona whose adapter answers with its prompt: what a thread step receives becomes its output. */
const ECHO_PERSONA = 'adapters:\n  echo: { type: process, binary: cat }\npersonas:\n  reader: { adapter: echo }\n';

/** A project whose step `scan` forges, and whose thread step `reader` (after it) answers with the prompt it received. */
function forgingProject() {
  const payload = join(tempDir(), 'payload.txt');
  writeFileSync(payload, `${FORGED_ROUND}\n${ESCAPES.join('')}\n`);
  const steps = [
    step('scan', { command: FORGER(payload), more: ['thread: t'] }),
    step('reader', { deps: ['scan'], exec: { source: 'Go on.' }, more: ['persona: reader', 'thread: t'] }),
  ];
  return project({ 'pipelines/views.yaml': pipeline('views', ...steps) }, manifest({ adapters: ECHO_PERSONA }));
}

/** Runs the forging project with `--output text`; its run's id and folder, and what it printed. */
async function forgedRun() {
  const dir = forgingProject();
  const run = await runWave(dir, ['run', 'views', '--output', 'text']);
  const runDir = runDirs(dir).at(-1);
  if (!runDir) throw new Error(`no run recorded: ${run.stderr}`);
  return { dir, run, runDir, id: runDir.split('/').at(-1) };
}

/** Lines the forged text made look like a round header, beyond the run's own two rounds. */
async function forgedRounds() {
  const { dir, id } = await forgedRun();
  const thread = await runWave(dir, ['thread', id, '--budget', '100000']);
  const headers = thread.stdout.match(/^\[#\d+ \S+\] \S+$/gm) ?? [];
  return figure('forged rounds seen in wave thread', Math.max(0, headers.length - 2));
}

/** `## Step:` headings in the THREAD CONTEXT the thread step received, beyond the one real step before it. */
async function forgedSteps() {
  const { runDir } = await forgedRun();
  const prompt = readIf(join(runDir, 'steps', 'reader', 'attempt-1', 'stdout')) ?? '';
  if (!prompt.startsWith('## THREAD CONTEXT')) throw new Error('the thread step received no THREAD CONTEXT');
  return figure('forged steps in a THREAD CONTEXT', Math.max(0, (prompt.match(/^## Step:/gm) ?? []).length - 1));
}

/** Control characters of the step's output that reached `--output text`, `wave status` and `wave logs`. */
async function rawEscapes() {
  const { dir, run, id } = await forgedRun();
  const views = [run.stdout, (await runWave(dir, ['status', id])).stdout, (await runWave(dir, ['logs', id])).stdout];
  const count = views.reduce((sum, text) => sum + (text.match(new RegExp(RAW_CONTROL.source, 'g')) ?? []).length, 0);
  return figure('raw control characters reaching --output text, wave status and wave logs', count);
}

/** The workflow commands the runner would act on in the log of the Action running a step that prints workflow commands and fails. */
async function actionCommands() {
  const printed = WORKFLOW_COMMANDS.map((line) => `echo '${line}'`).join('; ');
  const dir = project({ 'pipelines/forge.yaml': pipeline('forge', step('forge', { command: `${printed}; (${printed}) >&2; exit 1` })) });
  const files = join(dir, '.github-files');
  mkdirSync(files);
  const env = { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir, INPUT_PIPELINE: 'forge' };
  for (const name of ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_ENV']) writeFileSync((env[name] = join(files, name)), '');
  const { stdout } = await start(NODE, [ACTION], { cwd: dir, env }).done;
  if (!stdout.includes('FORGED-V1')) throw new Error(`the step's output is not in the log:\n${stdout}`);
  return activeWorkflowCommands(stdout);
}

/** Workflow-command lines of a step's output the runner would act on in the Action's log (Wave's own `::endgroup::` lines aside). */
async function workflowCommands() {
  const active = await actionCommands();
  const groups = active.filter((line) => line.startsWith('::group::')).length;
  const endGroups = active.filter((line) => line === '::endgroup::').length;
  const forged = active.filter((line) => line !== '::endgroup::' && WORKFLOW_COMMANDS.includes(line)).length + Math.max(0, endGroups - groups);
  return figure('workflow-command lines from step output outside a stop-commands region', forged);
}

/** Wave's error annotation for the failed step, silenced by the `::stop-commands::` line the step printed. */
async function silencedAnnotation() {
  const active = await actionCommands();
  return figure("Wave's failure annotations silenced by step output", active.some((line) => line.startsWith('::error title=Step forge failed')) ? 0 : 1);
}

const ATTACKS = [
  ['forged rounds', forgedRounds],
  ['forged thread steps', forgedSteps],
  ['raw escapes', rawEscapes],
  ['workflow commands', workflowCommands],
  ['silenced annotation', silencedAnnotation],
];

export async function bench() {
  return runAttacks('attack-views: forged records, terminal escapes and workflow commands from step output (built CLI and Action); each figure with its goal', ATTACKS);
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
