import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAVE_BIN, runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { requirementMet } from '../support/requirement.js';

/** Where Debian's bash-completion package puts the functions an interactive shell loads. */
const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

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
    ['bash', 'complete -F __wave_complete_anywhere wave'],
    ['zsh', 'compdef _wave wave'],
    ['fish', 'complete -c wave'],
    ['powershell', 'Register-ArgumentCompleter'],
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
});

describe('wave complete -- <words>', () => {
  it('offers the commands, with their descriptions, and not itself', async () => {
    const result = await complete(['']);
    expect(result.values).toEqual(expect.arrayContaining(['init', 'run', 'status', 'logs', 'completion']));
    expect(result.values).not.toContain('complete');
    expect(result.stdout).toContain('runs\tList recent runs, newest first.');
    expect((await complete(['re'])).values).toEqual(['resume']);
  });

  it("offers a command's flags", async () => {
    expect((await complete(['logs', '--st'])).values).toEqual(['--step', '--stderr']);
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

/** Sources the bash script of the bundled CLI and calls the function bash would call for Tab at the end of `line`. */
async function bashComplete(line: string, { withBashCompletion }: { withBashCompletion: boolean }): Promise<string[]> {
  const script = [
    withBashCompletion ? `source ${BASH_COMPLETION}` : '',
    'source <(wave completion bash)',
    // A re-read ~/.bashrc sources it again, which must be silent.
    'source <(wave completion bash)',
    'COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}',
    'read -r -a COMP_WORDS <<< "$COMP_LINE"',
    '[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")',
    'COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))',
    // What `complete -p wave` registered is what a Tab runs, with the command, the word and the word before it.
    'function=$(complete -p wave | sed -E "s/.*-F ([^ ]+) .*/\\1/")',
    '"$function" wave "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const result = await execa('bash', ['--norc', '--noprofile', '-c', script, 'bash', line], {
    cwd: project,
    env: { PATH: [bin, dirname(process.execPath), process.env.PATH].join(delimiter) },
    reject: false,
  });
  expect(result).toMatchObject({ exitCode: 0, stderr: '' });
  return String(result.stdout).split('\n').filter(Boolean);
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
