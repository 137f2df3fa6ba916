import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { latestRun, runDirs } from '../support/runs.js';

describe('wave run, end to end through command steps', () => {
  it('runs the shipped hello pipeline: fan-out, fan-in, a JSON report whose total matches wc', async () => {
    const result = await runWave(['run', 'pipelines/hello.yaml', '--output', 'text'], { cwd: ROOT });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const run = latestRun(ROOT);
    expect(run.status).toBe('completed');
    const report = JSON.parse(readFileSync(join(ROOT, '.wave', 'runs', run.id, run.steps.report!.artifacts[0]!.path), 'utf8'));
    // wc itself counts the whole file, in the C locale the steps' curated environment (no LANG) gives it.
    const words = Number((await execa('wc', ['-w'], { inputFile: join(ROOT, 'README.md'), env: { LC_ALL: 'C' } })).stdout.trim());
    expect(words).toBeGreaterThan(500);
    expect(report.document).toBe('README.md');
    expect(report.parts).toHaveLength(3);
    expect(report.words).toBe(words);
    expect(report.parts.reduce((a: number, b: number) => a + b, 0)).toBe(words);
  });

  it('passes a dependency output and an artifact path through templates', async () => {
    const project = makeProject({
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - id: make
    exec: { type: command, source: "printf '{\\"n\\": 41}' > data.json; echo made" }
    output_artifacts: [{ name: data, path: data.json }]
  - id: use
    dependencies: [make]
    memory: { inject_artifacts: [{ step: make, artifact: data, as: input.json }] }
    exec: { type: command, source: "echo {{ steps.make.output }} $(cat {{ artifacts.input.json }}) {{ input }}" }
`,
    });
    const result = await runWave(['run', 'p', '--input', "it's $HOME", '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    const run = latestRun(project);
    const out = readFileSync(join(runDirs(project)[0]!, 'steps', 'use', 'attempt-1', 'stdout'), 'utf8');
    // The input is inserted once, quoted: $HOME is not expanded and the quote survives.
    expect(out.trim()).toBe(`made {"n": 41} it's $HOME`);
    expect(run.steps.use!.status).toBe('completed');
  });

  it('refuses a cycle and an unknown template variable before anything runs', async () => {
    const project = makeProject({
      'pipelines/cycle.yaml': commandPipeline('cycle', [
        ['a', ['b'], 'true'],
        ['b', ['a'], 'true'],
      ]),
      'pipelines/vars.yaml': commandPipeline('vars', [['a', [], 'echo {{ inputs }}']]),
    });
    const cycle = await runWave(['run', 'cycle'], { cwd: project });
    expect(cycle.code).toBe(2);
    expect(cycle.stderr).toContain('dag_cycle');
    const vars = await runWave(['run', 'vars'], { cwd: project });
    expect(vars.code).toBe(2);
    expect(vars.stderr).toMatch(/vars\.yaml:\d+:\d+: template_invalid: unknown template variable: `inputs`/);
    expect(runDirs(project)).toEqual([]);
  });

  it('reports a missing binary as spawn_failed with a hint', async () => {
    const project = makeProject({
      'wave.yaml': `kind: WaveManifest
metadata: { name: t }
adapters:
  ghost: { type: process, binary: wave-no-such-binary, args: ["{{prompt}}"] }
personas:
  ghost: { adapter: ghost }
`,
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - id: a
    persona: ghost
    exec: { source: hello }
`,
    });
    const result = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(result.code).toBe(1);
    const failure = latestRun(project).steps.a!.failure!;
    expect(failure.class).toBe('spawn_failed');
    expect(failure.hint ?? failure.message).toMatch(/wave-no-such-binary/);
  });

  it('retries a failing step and succeeds on the second attempt', async () => {
    const project = makeProject({
      'pipelines/p.yaml': commandPipeline(
        'p',
        [['flaky', [], 'if [ -f ../flag ]; then echo ok; else touch ../flag; echo boom >&2; exit 3; fi']],
        '    retry: { max_attempts: 2, base_delay: 10ms }\n',
      ),
    });
    const result = await runWave(['run', 'p', '--output', 'json'], { cwd: project });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const retry = events.find((e) => e.type === 'step_retrying');
    expect(retry.failure.class).toBe('non_zero_exit');
    expect(events.every((e) => e.v === 1)).toBe(true);
    expect(latestRun(project).steps.flaky!.attempts.map((a) => a.attempt)).toEqual([1, 2]);
  });

  it('ends a step at its timeout and a silent step at the stall timeout', async () => {
    const project = makeProject({
      'pipelines/slow.yaml': commandPipeline('slow', [['slow', [], 'sleep 30']], '    timeout_minutes: 0.01\n'),
      'pipelines/quiet.yaml': commandPipeline('quiet', [['quiet', [], 'echo start; sleep 30']]),
      'wave-stall.yaml': `kind: WaveManifest\nmetadata: { name: t }\nruntime: { stall_timeout: 1s, timeouts: { process_grace_seconds: 1 } }\n`,
    });
    const slow = await runWave(['run', 'slow', '--output', 'quiet'], { cwd: project });
    expect(slow.code).toBe(1);
    expect(latestRun(project).steps.slow!.failure!.class).toBe('timeout');
    const quiet = await runWave(['run', 'quiet', '-m', 'wave-stall.yaml', '--output', 'quiet'], { cwd: project });
    expect(quiet.code).toBe(1);
    expect(latestRun(project).steps.quiet!.failure!.class).toBe('stalled');
  });

  it('halts at the first failure by default and runs independent steps with --on-failure continue', async () => {
    const steps: [string, string[], string][] = [
      ['bad', [], 'exit 1'],
      ['after-bad', ['bad'], 'true'],
      ['slow-ok', [], 'sleep 2'],
    ];
    const project = makeProject({ 'pipelines/p.yaml': commandPipeline('p', steps) });
    const halted = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(halted.code).toBe(1);
    const h = latestRun(project);
    expect(h.status).toBe('failed');
    expect(h.steps['slow-ok']!.status).toBe('cancelled');
    const cont = await runWave(['run', 'p', '--on-failure', 'continue', '--output', 'quiet'], { cwd: project });
    expect(cont.code).toBe(1);
    const c = latestRun(project);
    expect(c.steps['slow-ok']!.status).toBe('completed');
    expect(c.steps['after-bad']!.status).toBe('skipped');
  });

  it('lets an optional step fail without failing the run', async () => {
    const project = makeProject({
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: maybe, optional: true, exec: { type: command, source: "exit 4" } }
  - { id: next, dependencies: [maybe], exec: { type: command, source: "echo fine" } }
`,
    });
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    const run = latestRun(project);
    expect(run.steps.maybe!.status).toBe('failed');
    expect(run.steps.next!.status).toBe('completed');
  });

  it('selects steps with --steps and --exclude', async () => {
    const project = makeProject({
      'pipelines/p.yaml': commandPipeline('p', [
        ['a', [], 'true'],
        ['b', [], 'true'],
        ['c', [], 'true'],
      ]),
    });
    expect((await runWave(['run', 'p', '--exclude', 'b', '--output', 'quiet'], { cwd: project })).code).toBe(0);
    const run = latestRun(project);
    expect([run.steps.a!.status, run.steps.b!.status, run.steps.c!.status]).toEqual(['completed', 'pending', 'completed']);
    const unknown = await runWave(['run', 'p', '--steps', 'zz'], { cwd: project });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no step `zz`');
  });

  it('prints the plan with --dry-run and runs nothing', async () => {
    const result = await runWave(['run', 'hello', '--dry-run'], { cwd: ROOT });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('1. split');
    expect(result.stdout).toContain('2. count-0, count-1, count-2');
    expect(result.stdout).toContain('<workspace>/.wave/artifacts/part');
  });

  it('refuses an artifact path that escapes the workspace', async () => {
    const project = makeProject({
      'pipelines/p.yaml': `kind: WavePipeline
metadata: { name: p }
steps:
  - id: a
    exec: { type: command, source: "true" }
    output_artifacts: [{ name: secret, path: ../../etc/passwd }]
`,
    });
    const result = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(1);
    const run = latestRun(project);
    expect(run.steps.a!.failure!.message).toMatch(/escapes|outside/);
    expect(existsSync(join(runDirs(project)[0]!, 'artifacts', 'a', 'secret'))).toBe(false);
  });
});
