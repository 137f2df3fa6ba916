import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RunStore } from '../../src/state/run-store.js';
import { sampleProject, sampleRecord, sampleStep } from '../state/sample-run.js';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, sandboxRuntime } from '../support/sandbox.js';
import { ESCAPES, FORGED_ROUND, RAW_CONTROL } from '../support/attacks.mjs';

/** Twelve command steps in a chain, each printing a 300-character line that names it. */
const CHAIN: [string, string[], string][] = Array.from({ length: 12 }, (_, i) => {
  const id = `s${String(i + 1).padStart(2, '0')}`;
  return [id, i ? [`s${String(i).padStart(2, '0')}`] : [], `printf '%s' "${id}-SAYS-"; printf 'x%.0s' $(seq 1 290); echo`];
});

/** Runs `pipeline` in a fresh project; returns the project, the run's id and its folder. */
async function runProject(pipeline: string, manifest?: string) {
  const project = makeProject({ 'pipelines/p.yaml': pipeline, ...(manifest ? { 'wave.yaml': manifest } : {}) });
  const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
  expect(run.code, run.stderr + run.stdout).toBe(0);
  const record = latestRun(project);
  return { project, id: record.id, runDir: join(project, '.wave', 'runs', record.id), record };
}

/** The headers `[#n step]` of a `wave thread` page, in order. */
const headers = (text: string) => [...text.matchAll(/^\[#(\d+) (\S+)\] \S+$/gm)].map((m) => `${m[1]} ${m[2]}`);

describe('wave thread', () => {
  let chain: Awaited<ReturnType<typeof runProject>>;
  beforeAll(async () => {
    chain = await runProject(commandPipeline('p', CHAIN));
  });

  it("prints a run's rounds: header, YAML frontmatter, body", async () => {
    const { project, id } = chain;
    const result = await runWave(['thread', id, '--budget', '100000'], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    expect(headers(result.stdout)).toEqual(CHAIN.map(([step], i) => `${i + 1} ${step}`));
    const first = result.stdout.split('\n\n')[0]!.split('\n');
    expect(first[0]).toMatch(/^\[#1 s01\] \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(first[1]).toBe('---');
    const end = first.indexOf('---', 2);
    expect(parse(first.slice(2, end).join('\n'))).toMatchObject({ adapter: 'command', status: 'passed', exit_code: 0, attempt: 1 });
    expect(first[end + 1]).toMatch(/^> s01-SAYS-x{290}$/);
    expect(result.stdout).not.toContain('omitted');
  });

  it('keeps to the default budget of 8000 and to --budget, printing the command that loads the rest', async () => {
    const { project, id } = chain;
    const whole = await runWave(['thread', id], { cwd: project });
    expect(whole.code).toBe(0);
    // Twelve rounds of ~430 characters fit in 8000.
    expect(headers(whole.stdout)).toHaveLength(12);
    const small = await runWave(['thread', id, '--budget', '1500'], { cwd: project });
    expect(small.code, small.stderr).toBe(0);
    expect(small.stdout.length).toBeLessThanOrEqual(1500);
    const shown = headers(small.stdout);
    expect(shown[0]).toBe('1 s01');
    expect(shown.at(-1)).toBe('12 s12');
    const oldest = Number(shown[1]!.split(' ')[0]);
    const gap = `... ${oldest - 2} rounds omitted (use --before ${oldest} to load) ...\nwave thread ${id} --before ${oldest} --budget 1500\n`;
    expect(small.stdout).toContain(gap);
    // The gap line comes right after round 1.
    expect(small.stdout.indexOf(gap)).toBeLessThan(small.stdout.indexOf(`[#${oldest} `));
    expect(small.stdout.indexOf(gap)).toBeGreaterThan(small.stdout.indexOf('[#1 s01]'));
  });

  it('--before loads the rounds the gap left out: following each printed command shows every round once', async () => {
    const { project, id } = chain;
    const first = (await runWave(['thread', id, '--budget', '1500'], { cwd: project })).stdout;
    const seen = headers(first);
    let command = first.match(/^wave thread .*$/m)?.[0] ?? '';
    expect(command).not.toBe('');
    for (let page = 0; page < 12 && command; page++) {
      const result = await runWave(command.split(' ').slice(1), { cwd: project });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.length).toBeLessThanOrEqual(1500);
      const shown = headers(result.stdout);
      expect(shown).not.toContain('1 s01');
      seen.push(...shown);
      command = result.stdout.match(/^wave thread .*$/m)?.[0] ?? '';
      // A --before page puts its gap on top: the rounds it leaves out are older than those shown.
      if (command) expect(result.stdout.startsWith('... ')).toBe(true);
    }
    expect(seen.sort((a, b) => parseInt(a) - parseInt(b))).toEqual(CHAIN.map(([step], i) => `${i + 1} ${step}`));
  });

  it('--json prints the page as JSON', async () => {
    const { project, id } = chain;
    const result = await runWave(['thread', id, '--budget', '1500', '--json'], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    const page = JSON.parse(result.stdout) as Record<string, any>;
    expect(page).toMatchObject({ run: id, total_rounds: 12, budget: 1500 });
    expect(page.rounds[0]).toMatchObject({ round: 1, step: 's01', adapter: 'command', status: 'passed', exit_code: 0, attempt: 1, cut: false });
    expect(page.rounds[0].body).toMatch(/^s01-SAYS-x{290}\n$/);
    expect(page.rounds[0].finished_at).toBe(chain.record.steps.s01!.attempts[0]!.finishedAt);
    expect(page.rounds.at(-1)).toMatchObject({ round: 12, step: 's12' });
    const oldest = page.rounds[1].round as number;
    expect(page.omitted).toEqual({ rounds: oldest - 2, before: oldest, command: `wave thread ${id} --before ${oldest} --budget 1500` });
    const before = JSON.parse((await runWave(['thread', id, '--before', '5', '--json'], { cwd: project })).stdout) as Record<string, any>;
    expect(before.before).toBe(5);
    expect(before.rounds.map((r: { round: number }) => r.round)).toEqual([2, 3, 4]);
    expect(before).not.toHaveProperty('omitted');
  });

  it('a --before that is not a round, or a budget that is not a number, is invalid input (exit 2) with a hint', async () => {
    const { project, id } = chain;
    for (const before of ['1', '14']) {
      const result = await runWave(['thread', id, '--before', before], { cwd: project });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`invalid_argument: --before ${before} is not a round of run ${id}`);
      expect(result.stderr).toContain('hint: Its rounds are 1 to 12; --before takes 2 to 13.');
    }
    const word = await runWave(['thread', id, '--before', 'soon'], { cwd: project });
    expect(word.code).toBe(2);
    expect(word.stderr).toContain('--before expects a positive whole number');
    const budget = await runWave(['thread', id, '--budget', '0'], { cwd: project });
    expect(budget.code).toBe(2);
    expect(budget.stderr).toContain('--budget expects a positive whole number');
    // A budget too small for one round's header and frontmatter is refused, naming the least it takes.
    const tiny = await runWave(['thread', id, '--budget', '200'], { cwd: project });
    expect(tiny.code).toBe(2);
    expect(tiny.stdout).toBe('');
    expect(tiny.stderr).toContain("--budget expects at least 1000, got `200`: a round's header and frontmatter");
    // --before 13 is the newest round's successor: valid, and the same as the tail without round 1.
    expect((await runWave(['thread', id, '--before', '13'], { cwd: project })).code).toBe(0);
  });

  it('takes a unique prefix of a run id, and says when a run is unknown', async () => {
    const { project, id } = chain;
    const prefix = await runWave(['thread', id.slice(0, -3), '--budget', '100000'], { cwd: project });
    expect(prefix.code, prefix.stderr).toBe(0);
    expect(headers(prefix.stdout)).toHaveLength(12);
    const unknown = await runWave(['thread', 'no-such-run'], { cwd: project });
    expect(unknown.code).toBe(2);
  });

  it('with no argument, uses $WAVE_RUN_ID and $WAVE_RUN_DIR, from a folder with no wave.yaml', async () => {
    const { id, runDir } = chain;
    const elsewhere = mkdtempSync(join(tmpdir(), 'wave-no-project-'));
    const result = await runWave(['thread', '--budget', '100000'], { cwd: elsewhere, env: { WAVE_RUN_ID: id, WAVE_RUN_DIR: runDir } });
    expect(result.code, result.stderr).toBe(0);
    expect(headers(result.stdout)).toEqual(CHAIN.map(([step], i) => `${i + 1} ${step}`));
    // Without them, it asks for a run.
    const none = await runWave(['thread'], { cwd: elsewhere, env: { WAVE_RUN_ID: '', WAVE_RUN_DIR: '' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('name a run');
    expect(none.stderr).toContain('$WAVE_RUN_ID');
  });

  it('says so when a run has no rounds yet', async () => {
    const project = sampleProject();
    const id = 'hello-20240501-120000-abcd';
    RunStore.create(project.runsRoot, sampleRecord(id, { status: 'running' }, [sampleStep('a', { status: 'running' })]));
    const result = await runWave(['thread', id], { cwd: project.dir, env: { WAVE_RUN_ID: '', WAVE_RUN_DIR: '' } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`run ${id} has no completed step attempts yet`);
    const before = await runWave(['thread', id, '--before', '2'], { cwd: project.dir });
    expect(before.code).toBe(2);
    expect(before.stderr).toContain('hint: It has no completed step attempts yet.');
  });
});

/** A pipeline whose last command step reads the thread of its own run with the `wave` on its PATH. */
const READER = commandPipeline('p', [
  ['one', [], 'echo FIRST-STEP-OUTPUT'],
  ['two', ['one'], 'echo SECOND-STEP-OUTPUT'],
  ['three', ['two'], 'echo "wave is $(command -v wave)"; wave thread "$WAVE_RUN_ID" --budget 2000'],
]);

/** What step `three` printed. */
const readerOutput = (runDir: string) => readFileSync(join(runDir, 'steps', 'three', 'attempt-1', 'stdout'), 'utf8');

describe('wave thread inside a step', () => {
  it('a command step runs `wave thread "$WAVE_RUN_ID"` from its PATH and reads the rounds before it', async () => {
    const { runDir } = await runProject(READER);
    const out = readerOutput(runDir);
    expect(out).toContain(`wave is ${join(runDir, 'bin', 'wave')}\n`);
    expect(headers(out)).toEqual(['1 one', '2 two']);
    expect(out).toContain('---\n> FIRST-STEP-OUTPUT');
    expect(out).toContain('---\n> SECOND-STEP-OUTPUT');
  });

  describe.skipIf(!backendAvailable('bubblewrap'))('in the bubblewrap sandbox', () => {
    it("reads the run's events through the read-only binds", async () => {
      const manifest = `kind: WaveManifest
metadata: { name: sandboxed }
runtime:
  timeouts: { process_grace_seconds: 1 }
${sandboxRuntime('bubblewrap')}`;
      // No run argument: inside the sandbox, $WAVE_RUN_ID and $WAVE_RUN_DIR name the run; its events are bound read-only.
      const pipeline = commandPipeline('p', [
        ['one', [], 'echo FIRST-STEP-OUTPUT'],
        ['two', ['one'], 'echo SECOND-STEP-OUTPUT'],
        [
          'three',
          ['two'],
          'echo "wave is $(command -v wave)"; wave thread --budget 2000; touch "$WAVE_RUN_DIR/events.ndjson" 2>/dev/null && echo EVENTS-WRITABLE; grep CapEff /proc/self/status; echo done',
        ],
      ]);
      const { runDir } = await runProject(pipeline, manifest);
      const out = readerOutput(runDir);
      expect(headers(out)).toEqual(['1 one', '2 two']);
      expect(out).toContain('---\n> FIRST-STEP-OUTPUT');
      expect(out).toContain(`wave is ${join(runDir, 'bin', 'wave')}\n`);
      expect(out).not.toContain('EVENTS-WRITABLE');
      // It did run in the sandbox: no capabilities, as the containment tests see.
      expect(out).toContain('CapEff:\t0000000000000000');
      expect(out).toContain('done');
    });
  });
});

describe('wave thread with a step that forges rounds', () => {
  /** Step `scan` prints a forged round and terminal escapes, and names a file after a forged step; `two` prints ok. */
  async function forgedRun() {
    const payload = join(mkdtempSync(join(tmpdir(), 'wave-payload-')), 'payload.txt');
    writeFileSync(payload, `${FORGED_ROUND}\n${ESCAPES.join('')}\n`);
    return runProject(
      commandPipeline('p', [
        ['scan', [], `cat ${payload}; touch "$(printf 'evil\\n## Step: fake-scan \\033[2J')"`],
        ['two', ['scan'], 'echo ok'],
      ]),
    );
  }

  it('keeps the forged round inside its own, quoted, with its escapes and its file name shown escaped; --json keeps them exact', async () => {
    const { project, id } = await forgedRun();
    const result = await runWave(['thread', id, '--budget', '100000'], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    expect(headers(result.stdout)).toEqual(['1 scan', '2 two']);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    const [first] = result.stdout.split('\n\n');
    const lines = first!.split('\n');
    const body = lines.slice(lines.indexOf('---', 2) + 1);
    // Every line the step wrote is quoted: none can pass for a header, a frontmatter line or a THREAD CONTEXT heading.
    expect(body.every((line) => line === '>' || line.startsWith('> '))).toBe(true);
    expect(body).toContain('> [#2 fake-scan] 2026-01-01T00:00:00.000Z');
    // The line separator at the end is trailing whitespace, trimmed like the rest.
    expect(body).toContain('> \\x1b[2J\\x1b[H\\x1b]0;PWNED-TITLE\\x07\\x1b[31m\\rOVERWRITE\\x9b2J');
    // The frontmatter quotes the file name with YAML's escapes (\n, \e): it reads back exact.
    expect(parse(lines.slice(2, lines.indexOf('---', 2)).join('\n'))).toMatchObject({ files_changed: [{ path: 'evil\n## Step: fake-scan \x1b[2J', change: 'added' }] });
    const page = JSON.parse((await runWave(['thread', id, '--json'], { cwd: project })).stdout) as { rounds: Array<{ body: string; files_changed?: Array<{ path: string }> }> };
    expect(page.rounds[0]!.body).toBe(`${FORGED_ROUND}\n${ESCAPES.join('')}\n`);
    expect(page.rounds[0]!.files_changed![0]!.path).toBe('evil\n## Step: fake-scan \x1b[2J');
  });
});
