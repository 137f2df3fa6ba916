// Containment II's attacks on names (items 7 to 9), repeatable against the built CLI: hostile pipeline file names through
// `wave compile` (read as GitHub reads a workflow), hostile names and typed lines through the bash, zsh and fish
// completion scripts in the real shells, and `wave init` into a folder whose every target is a symlink out of it.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { BASH_COMPLETION, bashReplies, fishCandidates, readByBash, zshWords } from '../test/support/completion-shells.mjs';
import { HOSTILE_LINES, HOSTILE_PIPELINES, HOSTILE_WORKFLOW_FILES, LINE_BREAK_PIPELINE, planted } from '../test/support/hostile-names.mjs';
import { NODE, WAVE, figure, filesUnder, pipeline, project, runAttacks, runWave, step, tempDir } from './attack-harness.mjs';

// GitHub's workflow parser imports JSON the way a bundler does; plain Node needs the hook for that.
register('./json-import-hook.mjs', import.meta.url);
const { readAsGithub } = await import('../test/support/workflow-reader.mjs');

const PIPELINE = pipeline('hostile', step('only', { command: 'true' }));

/** The expressions GitHub evaluates in `wave compile <file>` of a project holding the pipeline at `file`, with the compile's outcome. */
async function compiled(file) {
  const out = await runWave(project({ [file]: PIPELINE }), ['compile', file]);
  if (out.code !== 0) return { compiled: false, errors: [out.stderr.trim()], expressions: [] };
  return { compiled: true, ...(await readAsGithub(out.stdout)) };
}

/** Every file name GitHub would evaluate an expression of, or whose workflow GitHub (or the compile) rejects. */
async function compileHostileNames() {
  const own = new Set((await compiled('pipelines/plain.yaml')).expressions);
  let evaluated = 0;
  let rejected = 0;
  for (const name of HOSTILE_WORKFLOW_FILES) {
    const { compiled: ok, errors, expressions } = await compiled(`pipelines/${name}`);
    // GitHub's literal `${{` is the one expression a name may add: it evaluates to the text as written.
    evaluated += expressions.filter((e) => !own.has(e) && e !== "'${{'").length;
    if (!ok || errors.length) rejected++;
  }
  return [
    figure(`compile: expressions from ${HOSTILE_WORKFLOW_FILES.length} hostile pipeline file names that GitHub would evaluate`, evaluated),
    figure('workflows GitHub would reject or not written', rejected),
  ];
}

/** Refuses to stage without a shell the attack drives. */
function requireShells() {
  const missing = ['zsh', 'fish'].filter((shell) => !process.env.PATH.split(delimiter).some((dir) => existsSync(join(dir, shell))));
  if (!existsSync(BASH_COMPLETION)) missing.push('bash-completion');
  if (missing.length) throw new Error(`install the Debian package(s) ${missing.join(', ')}`);
}

/** Tab after each hostile name's first letter and after each hostile typed line, in bash (with and without bash-completion, Enter pressed on what it inserted), zsh and fish. */
async function completionHostileNames() {
  requireShells();
  const dir = project(Object.fromEntries([...HOSTILE_PIPELINES, LINE_BREAK_PIPELINE].map((name) => [`pipelines/${name}.yaml`, PIPELINE])));
  const bin = tempDir();
  symlinkSync(WAVE, join(bin, 'wave'));
  const place = { cwd: dir, path: [bin, dirname(NODE), process.env.PATH].join(delimiter) };
  for (const line of [...HOSTILE_PIPELINES.map((name) => `wave run ${name[0]}`), 'wave run d', ...HOSTILE_LINES]) {
    for (const withBashCompletion of [false, true]) await readByBash((await bashReplies(line, { ...place, withBashCompletion })).replies, dir);
    await zshWords(line, place);
    await fishCandidates(line, place);
  }
  return figure('completion: files created by Tab on hostile names and typed lines (bash with and without bash-completion, zsh, fish)', planted(dir).length);
}

/** The files under `dir` with their text. */
const contents = (dir) => new Map(filesUnder(dir).map((file) => [file, readFileSync(file, 'utf8')]));

/** `wave init` (then `wave init --force`) into a folder whose personas/, pipelines/, wave.yaml, .gitignore and .wave/ link out of it. */
async function initThroughLinks() {
  let written = 0;
  for (const force of [false, true]) {
    const root = tempDir();
    const outside = join(root, 'outside');
    for (const folder of ['personas', 'pipelines', 'wave-state']) mkdirSync(join(outside, folder), { recursive: true });
    writeFileSync(join(outside, 'gitignore'), 'secrets.env\n');
    writeFileSync(join(outside, 'personas', 'navigator.md'), 'kept\n');
    mkdirSync(join(root, 'project'));
    const links = { personas: 'personas', pipelines: 'pipelines', 'wave.yaml': 'manifest.yaml', '.gitignore': 'gitignore', '.wave': 'wave-state' };
    for (const [path, target] of Object.entries(links)) symlinkSync(join(outside, target), join(root, 'project', path));
    const before = contents(outside);
    await runWave(root, ['init', 'project', ...(force ? ['--force'] : [])]);
    written += [...contents(outside)].filter(([file, text]) => before.get(file) !== text).length;
  }
  return figure('init: files written or changed outside the folder through symlinks (without and with --force)', written);
}

const ATTACKS = [
  ['compile of hostile file names', compileHostileNames],
  ['completion of hostile names', completionHostileNames],
  ['init through symlinks', initThroughLinks],
];

/** The report: one figure per attack, each with its goal of 0. */
export async function bench() {
  return runAttacks("attack-names: Containment II's attacks on names (compile, completion, init) on the built CLI; each figure with its goal", ATTACKS);
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
