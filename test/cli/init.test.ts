import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runWave } from '../support/cli.js';
import { findOnPath } from '../support/requirement.js';
import { scratchFolder } from '../support/scratch.js';

const SCAFFOLD = [
  'wave.yaml',
  'personas/base-protocol.md',
  'personas/navigator.md',
  'personas/craftsman.md',
  'personas/reviewer.md',
  'personas/critic.md',
  'pipelines/hello.yaml',
  'pipelines/review.yaml',
  'pipelines/review-llm.yaml',
];
const scratch = scratchFolder('wave-init-');

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

/** The first executable named `name` on PATH. */
function onPath(name: string): string {
  const found = findOnPath(name);
  if (!found) throw new Error(`${name} is not on PATH`);
  return found;
}

/**
 * A PATH folder holding only the tools the scaffolded pipeline uses, and stand-ins for the agent CLIs that record
 * being called: no git, no agent.
 */
function bareToolbox(): { bin: string; calls: string } {
  const bin = join(scratch, 'toolbox');
  const calls = join(scratch, 'agent-calls');
  mkdirSync(bin, { recursive: true });
  for (const tool of ['sh', 'printf', 'wc', 'tr', 'awk', 'tee']) symlinkSync(onPath(tool), join(bin, tool));
  for (const agent of ['claude', 'codex', 'opencode', 'gemini']) {
    writeFileSync(join(bin, agent), `#!/bin/sh\necho ${agent} "$@" >> '${calls}'\nexit 1\n`);
    chmodSync(join(bin, agent), 0o755);
  }
  return { bin, calls };
}

describe('wave init', () => {
  it('scaffolds a project that validates as written, named after its folder', async () => {
    const dir = join(scratch, 'Fresh Project');
    const result = await runWave(['init', dir]);
    expect(result.code, result.stderr).toBe(0);
    for (const file of SCAFFOLD) {
      expect(existsSync(join(dir, file)), file).toBe(true);
      expect(result.stdout).toContain(file);
    }
    expect(readFileSync(join(dir, 'wave.yaml'), 'utf8')).toContain('\n  name: fresh-project\n');
    const check = await runWave(['validate'], { cwd: dir });
    expect(check.code, check.stdout).toBe(0);
    expect(check.stdout).toMatch(/^✓ wave\.yaml\n✓ pipelines\/hello\.yaml\n✓ pipelines\/review-llm\.yaml\n✓ pipelines\/review\.yaml\n/);
    // At most a warning that the Claude Code example's worktrees need a git repository, which a new folder is not.
    expect(check.stdout).toMatch(/4 files valid(, 1 warning)?$/);
    for (const warning of check.stdout.split('\n').filter((line) => line.startsWith('warning:')))
      expect(warning).toMatch(/^warning: pipelines\/review\.yaml:\d+:\d+: workspace_failed/);
  });

  it('writes a pipeline that runs at once, unchanged: commands only, no agent, no API key, no git', async () => {
    const dir = join(scratch, 'runs-at-once');
    expect((await runWave(['init', dir])).code).toBe(0);
    const { bin, calls } = bareToolbox();
    const env: Record<string, string> = { PATH: bin };
    for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY']) env[key] = '';
    const run = await runWave(['run', 'hello', '--input', 'Wave checks everything', '--output', 'text'], { cwd: dir, env });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    // Fan out to three steps, fan in to the report, whose contract is checked.
    for (const step of ['text', 'words', 'letters', 'longest', 'report']) expect(run.stdout).toMatch(new RegExp(`${step} +completed`));
    expect(run.stdout).toContain('artifact text saved');
    expect(run.stdout).toContain('contract 1:json_schema report.json passed');
    // The results are in the terminal, not only in the run folder.
    expect(run.stdout).toContain('everything');
    const runs = join(dir, '.wave', 'runs');
    const [runId] = readdirSync(runs);
    const report: unknown = JSON.parse(readFileSync(join(runs, runId!, 'artifacts', 'report', 'report.json'), 'utf8'));
    expect(report).toEqual({ words: 3, letters: 20, longest: 'everything' });
    expect(existsSync(calls), existsSync(calls) ? readFileSync(calls, 'utf8') : '').toBe(false);
  });

  it('says to cd into a new folder, and not when the project is the current folder', async () => {
    const made = await runWave(['init', 'new folder'], { cwd: scratch });
    expect(made.stdout).toContain("next: cd 'new folder' && wave run hello");
    const here = join(scratch, 'here');
    mkdirSync(here);
    const inPlace = await runWave(['init'], { cwd: here });
    expect(inPlace.stdout).toContain('next: wave run hello');
    expect(inPlace.stdout).not.toContain('cd ');
  });

  it("mentions nothing of Wave's own repository in what it writes or prints", async () => {
    const dir = join(scratch, 'standalone');
    const result = await runWave(['init', dir]);
    const texts = [result.stdout, ...filesUnder(dir).map((file) => readFileSync(join(dir, file), 'utf8'))];
    for (const text of texts) {
      expect(text).not.toMatch(/\btest\/|test\/support|model-server|templates\/init/);
      expect(text).not.toContain(ROOT);
    }
  });

  it('refuses a file for a folder, saying so', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, '');
    const refused = await runWave(['init', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`invalid_argument: ${file} is a file, not a folder`);
    expect(refused.stderr).toContain('hint: Name a folder');
  });

  it('refuses to overwrite, names the files, and writes nothing; --force overwrites', async () => {
    const dir = join(scratch, 'existing');
    mkdirSync(join(dir, 'personas'), { recursive: true });
    writeFileSync(join(dir, 'wave.yaml'), 'mine\n');
    writeFileSync(join(dir, 'personas', 'reviewer.md'), 'my reviewer\n');
    const refused = await runWave(['init', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('file_exists');
    expect(refused.stderr).toContain('`wave.yaml`, `personas/reviewer.md`');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(join(dir, 'wave.yaml'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(dir, 'personas', 'navigator.md'))).toBe(false);
    expect(existsSync(join(dir, 'pipelines'))).toBe(false);
    expect(existsSync(join(dir, '.gitignore'))).toBe(false);

    const forced = await runWave(['init', dir, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'wave.yaml'), 'utf8')).toContain('kind: WaveManifest');
    expect(readFileSync(join(dir, 'personas', 'reviewer.md'), 'utf8')).toBe(readFileSync(join(ROOT, 'personas', 'reviewer.md'), 'utf8'));
  });
});
