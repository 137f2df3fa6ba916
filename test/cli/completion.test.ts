import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAVE_BIN, runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { findOnPath, requirementMet } from '../support/requirement.js';
import { BASH_COMPLETION, bashReplies, fishCandidates, readByBash, zshWords } from '../support/completion-shells.mjs';
import { HOSTILE_LINES, HOSTILE_PIPELINES, LINE_BREAK_PIPELINE, planted } from '../support/hostile-names.mjs';

let project: string;
let empty: string;
/** The project's run ids, newest first, as `wave runs` lists them: deploy's, then build's. */
let runIds: string[];
let buildRun: string;
/** A folder holding `wave` (the bundled CLI), for the shell scripts that call it by name. */
let bin: string;

beforeAll(async () => {
  project = makeProject({
    'pipelines/build.yaml': commandPipeline('build', [
      ['compile', [], 'echo compiled'],
      ['test', ['compile'], 'echo tested'],
    ]),
    '.agents/pipelines/deploy.yaml': commandPipeline('deploy', [['ship', [], 'echo shipped']]),
  });
  // Two pipelines, so each run id has a prefix of its own.
  for (const pipeline of ['build', 'deploy']) expect((await runWave(['run', pipeline], { cwd: project })).code).toBe(0);
  runIds = (JSON.parse((await runWave(['runs', '--json'], { cwd: project })).stdout) as { id: string }[]).map((run) => run.id);
  expect(runIds).toEqual([expect.stringMatching(/^deploy-/), expect.stringMatching(/^build-/)]);
  buildRun = runIds[1]!;
  empty = mkdtempSync(join(tmpdir(), 'wave-completion-empty-'));
  bin = mkdtempSync(join(tmpdir(), 'wave-completion-bin-'));
  symlinkSync(WAVE_BIN, join(bin, 'wave'));
});
afterAll(() => {
  for (const dir of [project, empty, bin]) rmSync(dir, { recursive: true, force: true });
});

/** Asks for the candidates as the shell scripts do (`wave complete -- <words>`): the values, then the directive line. */
async function complete(words: string[], cwd = project) {
  const result = await runWave(['complete', '--', ...words], { cwd });
  const lines = result.stdout.split('\n');
  return { ...result, values: lines.filter((line) => !line.startsWith(':')).map((line) => line.split('\t')[0]), directive: lines.at(-1) };
}

describe('wave completion <shell>', () => {
  it.each([
    ['bash', 'complete -F __wave_complete wave'],
    ['zsh', 'compdef _wave wave'],
    ['fish', 'complete -c wave'],
  ])('prints a %s script that asks `wave complete --` for the candidates', async (shell, registers) => {
    const result = await runWave(['completion', shell]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(registers);
    expect(result.stdout).toMatch(/wave complete '?--/);
  });

  it('refuses a shell it has no script for, and says which it has', async () => {
    const result = await runWave(['completion', 'tcsh']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Allowed choices are zsh, bash, fish, powershell.');
  });

  it('refuses PowerShell, whose script would evaluate the typed line', async () => {
    const result = await runWave(['completion', 'powershell']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no powershell completion: its script would evaluate the typed line');
  });
});

describe('wave complete -- <words>', () => {
  it('offers the commands, with their descriptions, and not itself', async () => {
    const result = await complete(['']);
    expect(result.values).toEqual(expect.arrayContaining(['init', 'run', 'status', 'logs', 'completion']));
    expect(result.values).not.toContain('complete');
    expect(result.stdout).toContain('runs\tList recent runs, newest first.');
    expect((await complete(['res'])).values).toEqual(['resume']);
  });

  it("offers a command's flags", async () => {
    expect((await complete(['logs', '--st'])).values).toEqual(['--step', '--stdout', '--stderr']);
    expect((await complete(['run', '--dr'])).values).toEqual(['--dry-run']);
  });

  it('offers the pipelines of pipelines/ and .agents/pipelines/ to run, validate, compile and run --dry-run', async () => {
    for (const words of [
      ['run', ''],
      ['validate', ''],
      ['compile', ''],
      ['run', '--dry-run', ''],
    ]) {
      expect((await complete(words)).values, words.join(' ')).toEqual(['build', 'deploy']);
    }
    expect((await complete(['run', 'de'])).values).toEqual(['deploy']);
  });

  it('offers the run ids, newest first, to status, logs, thread, diff, cancel and resume', async () => {
    for (const command of ['status', 'logs', 'thread', 'diff', 'cancel', 'resume']) {
      const result = await complete([command, '']);
      expect(result.values, command).toEqual(runIds);
      expect(result.stdout).toContain(`${buildRun}\tbuild, completed`);
    }
    expect((await complete(['status', 'bu'])).values).toEqual([buildRun]);
    // -m on the line names the project, wherever the line is typed.
    expect((await complete(['status', '-m', project, ''], empty)).values).toEqual(runIds);
  });

  it('offers the steps of the run on the line, or of the pipeline for run', async () => {
    expect((await complete(['logs', buildRun, '--step', ''])).values).toEqual(['compile', 'test']);
    expect((await complete(['resume', 'bu', '--from-step', 't'])).values).toEqual(['test']);
    expect((await complete(['diff', buildRun, '--step', ''])).values).toEqual(['compile', 'test']);
    expect((await complete(['run', 'build', '--steps', ''])).values).toEqual(['compile', 'test']);
    // A comma-separated list goes on after the steps already in it.
    expect((await complete(['run', 'build', '--exclude', 'compile,'])).values).toEqual(['compile,test']);
    expect((await complete(['logs', '--step', ''])).values).toEqual([]);
  });

  it('offers nothing, and prints nothing on stderr, where there is no project, run or readable pipeline', async () => {
    for (const words of [
      ['status', ''],
      ['run', ''],
      ['logs', 'no-such-run', '--step', ''],
      ['run', 'missing', '--steps', ''],
    ]) {
      const result = await complete(words, empty);
      expect(result, words.join(' ')).toMatchObject({ code: 0, stderr: '', values: [], directive: ':4' });
    }
    writeFileSync(join(empty, 'wave.yaml'), 'kind: [WaveManifest\n');
    mkdirSync(join(empty, 'pipelines'));
    writeFileSync(join(empty, 'pipelines', 'broken.yaml'), 'steps:\n  - id: a prompt: x: y\n');
    const broken = await complete(['run', 'broken', '--steps', ''], empty);
    expect(broken).toMatchObject({ code: 0, stderr: '', values: [] });
    expect((await complete(['run', ''], empty)).values).toEqual(['broken']);
  });
});

/** A PATH with the bundled CLI as `wave`. */
const shellPath = () => [bin, dirname(process.execPath), process.env.PATH].join(delimiter);

/** Sources the bash script of the bundled CLI and calls the function bash would call for Tab at the end of `line`: what it offers. */
async function bashComplete(line: string, { withBashCompletion, cwd = project }: { withBashCompletion: boolean; cwd?: string }): Promise<string[]> {
  const result = await bashReplies(line, { cwd, path: shellPath(), withBashCompletion });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return result.replies;
}

describe('bash completion, for real', () => {
  it('completes a run id in a stock bash, without the bash-completion package', async () => {
    expect(await bashComplete('wave status bu', { withBashCompletion: false })).toEqual([buildRun]);
    expect(await bashComplete(`wave logs ${buildRun} --step `, { withBashCompletion: false })).toEqual(['compile', 'test']);
  });

  const hasBashCompletion = requirementMet('bash-completion', existsSync(BASH_COMPLETION), 'install the Debian package bash-completion');
  it.skipIf(!hasBashCompletion)("completes a run id through bash-completion's own reading of the line", async () => {
    expect(await bashComplete('wave status bu', { withBashCompletion: true })).toEqual([buildRun]);
    expect(await bashComplete(`wave logs ${buildRun} --step `, { withBashCompletion: true })).toEqual(['compile', 'test']);
  });
});

/** A project whose pipelines were named by someone else, and a run folder whose record gives the run and a step such names. */
function hostileProject(): string {
  const pipeline = commandPipeline('hostile', [['only', [], 'true']]);
  const dir = makeProject(Object.fromEntries([...HOSTILE_PIPELINES, LINE_BREAK_PIPELINE].map((name) => [`pipelines/${name}.yaml`, pipeline])));
  const record = JSON.parse(readFileSync(join(project, '.wave/runs', buildRun, 'run.json'), 'utf8')) as { id: string; pipeline: string; steps: Record<string, unknown> };
  record.id = 'r$(touch pwned-r)';
  record.pipeline = 'p\u001b]0;title\u0007';
  record.steps = { 's$(touch pwned-s)': record.steps.compile };
  mkdirSync(join(dir, '.wave/runs/planted'), { recursive: true });
  writeFileSync(join(dir, '.wave/runs/planted/run.json'), JSON.stringify(record));
  return dir;
}

/** What each shell must complete from the letter typed: every hostile pipeline, run and step, as it is named. */
const HOSTILE_COMPLETIONS: [string, string][] = [
  ...HOSTILE_PIPELINES.map((name, i): [string, string] => [`wave ${['run', 'validate', 'compile'][i % 3]} ${name[0]}`, name]),
  ['wave status r', 'r$(touch pwned-r)'],
  ['wave logs planted --step s', 's$(touch pwned-s)'],
];

describe('wave complete -- with names someone else chose', () => {
  it('offers each name as it is, leaves out the one with a line break, and prints no control character', async () => {
    const dir = hostileProject();
    expect((await complete(['run', ''], dir)).values).toEqual(HOSTILE_PIPELINES);
    const runs = await complete(['status', ''], dir);
    expect(runs.values).toEqual(['r$(touch pwned-r)']);
    expect(runs.stdout).toContain('r$(touch pwned-r)\tp ]0;title , completed');
    expect(planted(dir)).toEqual([]);
  });
});

describe('bash completion of names someone else chose', () => {
  const hasBashCompletion = requirementMet('bash-completion', existsSync(BASH_COMPLETION), 'install the Debian package bash-completion');
  it.each([false, ...(hasBashCompletion ? [true] : [])])('inserts each quoted, so the line runs nothing of it (bash-completion loaded: %s)', async (withBashCompletion) => {
    const dir = hostileProject();
    for (const [line, name] of HOSTILE_COMPLETIONS) {
      const replies = await bashComplete(line, { withBashCompletion, cwd: dir });
      expect(await readByBash(replies, dir), line).toEqual([[name]]);
    }
    expect(await bashComplete('wave run ', { withBashCompletion, cwd: dir })).toHaveLength(HOSTILE_PIPELINES.length);
    expect(await bashComplete('wave run d', { withBashCompletion, cwd: dir })).toEqual([]);
    expect(planted(dir)).toEqual([]);
  });

  it.each([false, ...(hasBashCompletion ? [true] : [])])('never evaluates the typed line (bash-completion loaded: %s)', async (withBashCompletion) => {
    const dir = hostileProject();
    for (const line of HOSTILE_LINES) await bashComplete(line, { withBashCompletion, cwd: dir });
    expect(planted(dir)).toEqual([]);
  });
});

/** The words of the line after an interactive zsh completed `line` in `cwd`. */
async function zshComplete(line: string, cwd: string): Promise<string[]> {
  const result = await zshWords(line, { cwd, path: shellPath() });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return result.words;
}

const hasZsh = requirementMet('zsh', findOnPath('zsh') !== undefined, 'install the Debian package zsh');
describe.skipIf(!hasZsh)('zsh completion, for real', () => {
  it('completes in an interactive zsh, inserts names someone else chose quoted (the line runs nothing of them), never evaluates the typed line', async () => {
    expect(await zshComplete('wave status bu', project)).toEqual(['wave', 'status', buildRun]);
    expect(await zshComplete(`wave logs ${buildRun} --step t`, project)).toEqual(['wave', 'logs', buildRun, '--step', 'test']);
    const dir = hostileProject();
    for (const [line, name] of HOSTILE_COMPLETIONS) expect(await zshComplete(line, dir), line).toEqual([...line.split(' ').slice(0, -1), name]);
    // The name with a line break is left out: nothing to insert.
    expect(await zshComplete('wave run d', dir)).toEqual(['wave', 'run', 'd']);
    for (const line of HOSTILE_LINES) await zshComplete(line, dir);
    expect(planted(dir)).toEqual([]);
  });
});

/** The candidates fish offers for `line` in `cwd`, without their descriptions. */
async function fishComplete(line: string, cwd: string): Promise<string[]> {
  const result = await fishCandidates(line, { cwd, path: shellPath() });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return result.candidates;
}

const hasFish = requirementMet('fish', findOnPath('fish') !== undefined, 'install the Debian package fish');
describe.skipIf(!hasFish)('fish completion, for real', () => {
  it('completes, offers names someone else chose as they are (the one with a line break left out), runs nothing of them, never evaluates the typed line', async () => {
    expect(await fishComplete('wave status bu', project)).toEqual([buildRun]);
    expect(await fishComplete(`wave logs ${buildRun} --step `, project)).toEqual(['compile', 'test']);
    const dir = hostileProject();
    for (const [line, name] of HOSTILE_COMPLETIONS) expect(await fishComplete(line, dir), line).toEqual([name]);
    expect(await fishComplete('wave run d', dir)).toEqual([]);
    for (const line of HOSTILE_LINES) await fishComplete(line, dir);
    expect(planted(dir)).toEqual([]);
  });
});
