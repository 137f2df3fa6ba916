import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';

const MANIFEST = `kind: WaveManifest
metadata: { name: listed }
project: { skill: golang }
skills: [review]
adapters:
  claude: { model: sonnet }
  shell: { type: process, binary: sh, args: ["-c", "{{prompt}}"] }
  local: { type: llm, base_url: "http://127.0.0.1:1/v1", model: small }
  inhouse: { module: ./inhouse.mjs }
personas:
  navigator: { adapter: claude, description: Finds its way around the code, skills: [review] }
  judge: { adapter: local, model: tiny }
`;

/** Makes a step that runs a command, written as in the pipelines below. */
const step = (id: string, extra = '') => `  - id: ${id}\n    exec: { type: command, source: "true" }\n${extra}`;

/** A plugin module whose definition names the binary `inhouse-cli`, importing the packaged wave-pipelines/adapter. */
const PLUGIN = `import { defineAdapter } from ${JSON.stringify(join(ROOT, 'dist', 'bundle', 'adapter.js'))};
export default defineAdapter({ name: 'inhouse', binary: 'inhouse-cli', prepare: async (config) => ({ args: [], env: config.env }), stream: () => ({ line: () => [], finish: () => ({ ok: true, text: '' }) }) });
`;

const FILES = {
  'wave.yaml': MANIFEST,
  'inhouse.mjs': PLUGIN,
  'pipelines/good.yaml': `kind: WavePipeline\nmetadata: { name: good, description: "Does the\\nright thing" }\nskills: ["{{ project.skill }}"]\nsteps:\n${step('one')}`,
  'pipelines/off.yaml': `kind: WavePipeline\nmetadata: { name: off, disabled: true }\nsteps:\n${step('one')}`,
  'pipelines/twice.yaml': `kind: WavePipeline\nmetadata: { name: twice }\nsteps:\n${step('one')}`,
  '.agents/pipelines/twice.yaml': `kind: WavePipeline\nmetadata: { name: twice }\nsteps:\n${step('one')}`,
  '.agents/pipelines/broken.yaml': `kind: WavePipeline\nmetadata: { name: broken, description: Not quite }\nsteps:\n  - id: one\n    persona: navigator\n    exec: { source: hi }\n    skills: [missing-skill]\n    colour: red\n`,
  'skills/review/SKILL.md': '---\nname: review\ndescription: review\n---\nReview.\n',
  'skills/golang/SKILL.md': '---\nname: golang\ndescription: golang\n---\nGo.\n',
};

let project: string;
beforeAll(() => {
  project = makeProject(FILES);
});

/** `wave list <kind> --json` in the project, parsed. */
async function listed<T>(kind: string, cwd = project): Promise<T[]> {
  const result = await runWave(['list', kind, '--json'], { cwd });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T[];
}

describe('wave list pipelines', () => {
  it('lists every pipeline `wave run` finds, with its description and whether it loads; a broken one with its problems', async () => {
    const pipelines = await listed<Record<string, unknown>>('pipelines');
    expect(pipelines.map((p) => [p.name, p.file, p.loads, p.disabled ?? false, p.ambiguous ?? false])).toEqual([
      ['good', 'pipelines/good.yaml', true, false, false],
      ['off', 'pipelines/off.yaml', true, true, false],
      ['twice', 'pipelines/twice.yaml', true, false, true],
      ['broken', '.agents/pipelines/broken.yaml', false, false, false],
      ['twice', '.agents/pipelines/twice.yaml', true, false, true],
    ]);
    expect(pipelines[0]!.description).toBe('Does the\nright thing');
    const problems = pipelines[3]!.problems as string[];
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('lists skill `missing-skill`, which is not there');
    expect(problems[1]).toContain('unknown key `colour`');
  });

  it('prints a table: each pipeline on one line, a broken one followed by its problem count and first problem', async () => {
    const result = await runWave(['list', 'pipelines'], { cwd: project });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'PIPELINE  LOADS     DESCRIPTION',
      'good      ok        Does the right thing',
      'off       disabled',
      'twice     ok',
      '    in both pipelines/ and .agents/pipelines/: wave run needs the path, pipelines/twice.yaml',
      'broken    broken    Not quite',
      '    2 problems (wave validate .agents/pipelines/broken.yaml), the first:',
      expect.stringMatching(/^ {4}\.agents\/pipelines\/broken\.yaml:\d+:\d+: file_not_found: step `one` lists skill `missing-skill`/),
      'twice     ok',
      '    in both pipelines/ and .agents/pipelines/: wave run needs the path, .agents/pipelines/twice.yaml',
    ]);
  });

  it('lists the pipelines of a folder without a wave.yaml against the built-in manifest, and says when there are none', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'wave-list-bare-'));
    mkdirSync(join(bare, 'pipelines'));
    writeFileSync(join(bare, 'pipelines', 'solo.yaml'), `kind: WavePipeline\nmetadata: { name: solo }\nsteps:\n${step('one')}`);
    expect((await listed<{ name: string; loads: boolean }>('pipelines', bare)).map((p) => [p.name, p.loads])).toEqual([['solo', true]]);
    const empty = mkdtempSync(join(tmpdir(), 'wave-list-empty-'));
    const none = await runWave(['list', 'pipelines'], { cwd: empty });
    expect(none).toMatchObject({ code: 0, stdout: `No pipelines in the project at ${empty}.` });
  });
});

describe('wave list personas and adapters', () => {
  it("lists personas with their adapter and model (the persona's, else its adapter's)", async () => {
    expect(await listed('personas')).toEqual([
      { name: 'judge', adapter: 'local', model: 'tiny' },
      { name: 'navigator', adapter: 'claude', model: 'sonnet', description: 'Finds its way around the code' },
    ]);
  });

  it("lists adapters with their type, the binary they start (the CLI's own by default; none for an HTTP model) and model", async () => {
    expect(await listed('adapters')).toEqual([
      { name: 'claude', type: 'claude', binary: 'claude', model: 'sonnet' },
      { name: 'inhouse', type: 'plugin', binary: 'inhouse-cli', model: null },
      { name: 'local', type: 'llm', binary: null, model: 'small' },
      { name: 'shell', type: 'process', binary: 'sh', model: null },
    ]);
    const table = await runWave(['list', 'adapters'], { cwd: project });
    expect(table.stdout).toBe(
      'ADAPTER  TYPE     BINARY       MODEL\nclaude   claude   claude       sonnet\ninhouse  plugin   inhouse-cli  -\nlocal    llm      -            small\nshell    process  sh           -',
    );
  });

  it('reports a broken manifest as any command does (exit 2), and says when there is nothing to list', async () => {
    const broken = makeProject({ 'wave.yaml': `${MANIFEST}colour: red\n` });
    const result = await runWave(['list', 'personas'], { cwd: broken });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown key `colour`');
    const bare = makeProject({ 'wave.yaml': 'kind: WaveManifest\nmetadata: { name: bare }\n' });
    expect(await runWave(['list', 'personas'], { cwd: bare })).toMatchObject({ code: 0, stdout: `No personas in the project at ${bare}.` });
  });
});

describe('wave list contracts and skills', () => {
  it('lists the contract types this version runs, each with what it checks', async () => {
    const contracts = await listed<{ type: string; checks: string }>('contracts');
    expect(contracts.map((c) => c.type)).toEqual(['json_schema', 'test_suite', 'non_empty_file', 'llm_judge', 'agent_review', 'test_diff', 'test_count_baseline']);
    for (const contract of contracts) expect(contract.checks.length).toBeGreaterThan(20);
  });

  it('lists the skills the manifest, its personas, the pipelines and their steps name, with the folder each is in', async () => {
    expect(await listed('skills')).toEqual([
      { name: 'golang', declaredBy: ['pipeline good'], folder: 'skills/golang' },
      { name: 'missing-skill', declaredBy: ['pipeline broken step one'], folder: null },
      { name: 'review', declaredBy: ['manifest', 'persona navigator'], folder: 'skills/review' },
    ]);
    const table = await runWave(['list', 'skills'], { cwd: project });
    expect(table.stdout.split('\n')[2]).toBe('missing-skill  missing        pipeline broken step one');
  });

  it('is offered by shell completion, each kind with what it lists', async () => {
    const result = await runWave(['complete', '--', 'list', ''], { cwd: project });
    const offered = result.stdout.split('\n').map((line) => line.split('\t')[0]);
    expect(offered).toEqual(expect.arrayContaining(['pipelines', 'personas', 'adapters', 'contracts', 'skills']));
    expect(result.stdout).toContain('contracts\tList the contract types this version runs, with what each checks.');
  });
});
