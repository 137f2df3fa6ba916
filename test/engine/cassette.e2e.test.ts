import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { create, list } from 'tar';
import { describe, expect, it } from 'vitest';
import { runAction } from '../github/run-action.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { replayedEventTypes } from '../support/recording.js';
import { readRun, waveRun, type Run } from '../support/wave-run.js';
import { addPluginCli, pluginManifest } from '../support/plugin-project.js';

// Cassettes: a recorded run exported to one file, moved to another copy of the project and replayed there.

/** A step that writes a file (after a retry), then a fan-out of child runs whose prompts carry the run's input. */
const FAN = `kind: WavePipeline
metadata: { name: fan }
steps:
  - id: write
    persona: dev
    retry: { max_attempts: 2, base_delay: 100ms }
    exec: { type: prompt, source: "Write it for {{ input }}. WRITE:out.txt FAIL_ONCE:rate_limited" }
    output_artifacts: [{ name: out, path: out.txt }]
  - { id: each, dependencies: [write], iterate: { over: '["alpha", "beta"]', mode: parallel }, pipeline: item, input: "{{ item }}" }
`;
const ITEM = `kind: WavePipeline
metadata: { name: item }
steps:
  - { id: work, persona: dev, exec: { type: prompt, source: "Handle {{ input }}." }, output_artifacts: [{ name: answer, source: stdout }] }
`;
const PROJECT_FILES = { 'wave.yaml': pluginManifest(), 'pipelines/fan.yaml': FAN, 'pipelines/item.yaml': ITEM };

/** A project holding a recorded run of `fan` (with its CLI then removed), and the run. */
async function recordedProject(): Promise<{ project: string; recorded: Run }> {
  const project = makeProject(PROJECT_FILES);
  addPluginCli(project);
  const recorded = await waveRun(project, ['run', 'fan', '--input', 'the cassette']);
  expect(recorded.code, recorded.output).toBe(0);
  rmSync(join(project, 'plugin-cli.mjs'));
  return { project, recorded };
}

/** The child runs a run started, read from the runs folder beside it. */
function childRuns(run: Run): Run[] {
  return run.events.filter((e) => e.type === 'child_run_started').map((e) => readRun(join(run.dir, '..', e.childRunId as string), 0, ''));
}

/** What a run and its children answered and produced, to compare a replay with its recording. */
function outcome(run: Run): unknown {
  const answers = (r: Run) => r.events.filter((e) => e.type === 'attempt_finished').map((e) => [e.stepId, e.attempt, e.passed, e.text, e.tokens]);
  const artifact = readFileSync(join(run.dir, 'artifacts', 'write', 'out.txt'), 'utf8');
  return { types: replayedEventTypes(run), answers: answers(run), artifact, children: childRuns(run).map(answers).sort() };
}

function cassetteDirs(project: string): string[] {
  const root = join(project, '.wave', 'cassettes');
  return existsSync(root) ? readdirSync(root) : [];
}

async function entriesOf(file: string): Promise<string[]> {
  const entries: string[] = [];
  await list({ file, onReadEntry: (entry) => entries.push(entry.path) });
  return entries;
}

describe('cassettes', () => {
  it('a cassette exported, moved to another folder and replayed: `wave replay`, `wave run --replay` and the Action', async () => {
    const { project, recorded } = await recordedProject();
    // Live state a run folder may be left with: a stale lock and its breaker.
    writeFileSync(join(recorded.dir, 'lock'), 'stale\n');
    writeFileSync(join(recorded.dir, 'lock.break'), 'stale\n');
    const exported = await runWave(['replay', 'export', recorded.record.id.slice(0, 12), '-o', 'replay.tgz'], { cwd: project });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`exported run ${recorded.record.id} and 2 child runs to ${join(project, 'replay.tgz')}`);

    const entries = await entriesOf(join(project, 'replay.tgz'));
    const runs = [recorded.record.id, ...childRuns(recorded).map((c) => c.record.id)];
    expect(entries).toContain('cassette.json');
    for (const id of runs) expect(entries).toContain(`runs/${id}/events.ndjson`);
    expect(entries).toContain(`runs/${recorded.record.id}/steps/write/attempt-2/attempt.json`);
    // What names the machine or is live state stays home (each was in the run folder).
    expect(existsSync(join(recorded.dir, 'bin', 'wave'))).toBe(true);
    expect(existsSync(join(recorded.dir, 'steps', 'write', 'attempt-1', 'pid'))).toBe(true);
    expect(entries.filter((path) => /\/(lock|lock\.break|pid)$|\/bin(\/|$)/.test(path))).toEqual([]);

    // Another copy of the project: its files, no runs, no CLI; the recording's own project is gone.
    const elsewhere = makeProject(PROJECT_FILES);
    mkdirSync(join(elsewhere, 'ci'));
    renameSync(join(project, 'replay.tgz'), join(elsewhere, 'ci', 'replay.tgz'));
    const expected = outcome(recorded);
    rmSync(project, { recursive: true, force: true });

    const replayed = await waveRun(elsewhere, ['replay', 'ci/replay.tgz']);
    expect(replayed.code, replayed.output).toBe(0);
    const [unpacked] = cassetteDirs(elsewhere);
    expect(unpacked).toMatch(/^[0-9a-f]{16}$/);
    expect(replayed.record.options.replayOf).toBe(join(elsewhere, '.wave', 'cassettes', unpacked!, 'runs', recorded.record.id));
    expect(replayed.record.pipelineFile).toBe(join(elsewhere, 'pipelines', 'fan.yaml'));
    expect(replayed.record.input).toBe('the cassette');
    expect(replayed.record.steps.each!.replayed).toBe(2);
    expect(replayed.events.filter((e) => e.type === 'replay_matched').map((e) => [e.stepId, e.attempt])).toEqual([
      ['write', 1],
      ['write', 2],
    ]);
    expect(outcome(replayed)).toEqual(expected);

    const run = await waveRun(elsewhere, ['run', 'fan', '--replay', 'ci/replay.tgz', '--input', 'the cassette']);
    expect(run.code, run.output).toBe(0);
    expect(outcome(run)).toEqual(expected);
    // Unpacked once, then reused.
    expect(cassetteDirs(elsewhere)).toEqual([unpacked]);

    const action = await runAction(elsewhere, { pipeline: 'fan', replay: 'ci/replay.tgz' });
    expect(action.code, action.stdout).toBe(0);
    expect(action.outputs.conclusion).toBe('success');
    const actionRun = readRun(action.outputs['run-dir']!, 0, '');
    expect(actionRun.record.options.replayOf).toBe(replayed.record.options.replayOf);
    expect(outcome(actionRun)).toEqual(expected);
  });

  it('export refuses to overwrite a file without --force, overwrites it with --force, and refuses a run still running', async () => {
    const { project, recorded } = await recordedProject();
    const file = join(project, 'replay.tgz');
    writeFileSync(file, 'an older file\n');
    const refused = await runWave(['replay', 'export', recorded.record.id, '-o', 'replay.tgz'], { cwd: project });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`file_exists: ${file} exists`);
    expect(refused.stderr).toContain('hint: Pass --force to overwrite it');
    expect(readFileSync(file, 'utf8')).toBe('an older file\n');
    const forced = await runWave(['replay', 'export', recorded.record.id, '-o', 'replay.tgz', '--force'], { cwd: project });
    expect(forced.code, forced.stderr).toBe(0);
    expect(await entriesOf(file)).toContain('cassette.json');
    // No temp file left beside it.
    expect(readdirSync(project).filter((name) => name.includes('replay.tgz'))).toEqual(['replay.tgz']);
    // From outside the project, -m names the manifest whose runs folder holds the run.
    const outside = makeProject({});
    const named = await runWave(['replay', 'export', recorded.record.id, '--output', 'here.tgz', '-m', join(project, 'wave.yaml')], { cwd: outside });
    expect(named.code, named.stderr).toBe(0);
    expect(await entriesOf(join(outside, 'here.tgz'))).toContain(`runs/${recorded.record.id}/run.json`);
    const unnamed = await runWave(['replay', 'export', recorded.record.id, '-o', 'there.tgz'], { cwd: outside });
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain(`run_not_found: no run \`${recorded.record.id}\``);

    // This test's process, alive, named as the run's owner.
    writeFileSync(join(recorded.dir, 'lock'), JSON.stringify({ pid: process.pid, token: 'held' }));
    const live = await runWave(['replay', 'export', recorded.record.id, '-o', 'live.tgz'], { cwd: project });
    expect(live.code).toBe(2);
    expect(live.stderr).toContain(`invalid_argument: run ${recorded.record.id} is still running (pid ${process.pid})`);
    expect(existsSync(join(project, 'live.tgz'))).toBe(false);
  });

  it('refuses a run folder holding a symlink by name, writing nothing', async () => {
    const { project, recorded } = await recordedProject();
    symlinkSync('/etc/hostname', join(recorded.dir, 'artifacts', 'write', 'link'));
    const refused = await runWave(['replay', 'export', recorded.record.id, '-o', 'replay.tgz'], { cwd: project });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`\`runs/${recorded.record.id}/artifacts/write/link\`, which is not a plain file or folder`);
    expect(readdirSync(project).filter((name) => name.includes('replay.tgz'))).toEqual([]);
  });
});

describe('an invalid cassette', () => {
  /** A tar.gz of `files` (path → content; a `->` value is a symlink to what follows it). */
  async function cassetteOf(dir: string, files: Record<string, string>): Promise<string> {
    const src = join(dir, 'src');
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(src, path, '..'), { recursive: true });
      if (content.startsWith('->')) symlinkSync(content.slice(2), join(src, path));
      else writeFileSync(join(src, path), content);
    }
    await create({ gzip: true, file: join(dir, 'bad.tgz'), cwd: src, portable: true }, readdirSync(src));
    rmSync(src, { recursive: true });
    return 'bad.tgz';
  }

  const cassetteJson = (version: number) =>
    JSON.stringify({ kind: 'WaveCassette', version, run: 'r-1', pipeline: 'fan', runs: ['r-1'], createdAt: new Date().toISOString(), wave: '0.1.0' });

  it.each([
    [
      'holds a symlink',
      (dir: string) => cassetteOf(dir, { 'cassette.json': cassetteJson(1), 'runs/r-1/run.json': '{}', 'runs/r-1/link': '->/etc/passwd' }),
      'its entry `runs/r-1/link` is a symlink',
    ],
    [
      'says version 2',
      (dir: string) => cassetteOf(dir, { 'cassette.json': cassetteJson(2), 'runs/r-1/run.json': '{}' }),
      'its cassette.json is format version 2; this Wave reads version 1',
    ],
    [
      'is not a tar',
      (dir: string) => {
        writeFileSync(join(dir, 'bad.tgz'), 'plain text, not an archive\n');
        return Promise.resolve('bad.tgz');
      },
      'is not a gzipped tar archive',
    ],
  ])('that %s exits as cassette_invalid naming the file and why, leaving nothing unpacked', async (_, make, reason) => {
    const project = makeProject(PROJECT_FILES);
    const file = await make(project);
    for (const args of [
      ['replay', file],
      ['run', 'fan', '--replay', file],
    ]) {
      const result = await runWave(args, { cwd: project });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`cassette_invalid: cassette ${join(project, file)}: ${reason}`);
      expect(result.stderr).toContain('hint: ');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(cassetteDirs(project)).toEqual([]);
      expect(existsSync(join(project, '.wave', 'runs')) ? readdirSync(join(project, '.wave', 'runs')) : []).toEqual([]);
    }
    expect(statSync(join(project, file)).isFile()).toBe(true);
  });

  it('a cassette file that does not exist is file_not_found, naming it', async () => {
    const project = makeProject(PROJECT_FILES);
    const result = await runWave(['replay', 'missing.tgz'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`file_not_found: no cassette file ${join(project, 'missing.tgz')}`);
  });
});
