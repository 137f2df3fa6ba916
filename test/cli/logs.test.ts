import { EVENT_VERSION } from '../../src/events.js';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import type { ResultPromise } from 'execa';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatClock } from '../../src/report/format.js';
import { RunStore } from '../../src/state/run-store.js';
import { sampleAttempt, sampleProject, sampleRecord, sampleStep } from '../state/sample-run.js';
import { runWave, startWave } from '../support/cli.js';
import { ESCAPES, RAW_CONTROL } from '../support/attacks.mjs';

const RUN = 'hello-20240501-120000-abcd';

/** A run whose step a has two attempts, b one, and c none yet. */
function projectWithLogs(status: 'completed' | 'running' = 'completed', pid?: number) {
  const project = sampleProject();
  const store = RunStore.create(
    project.runsRoot,
    sampleRecord(RUN, { status, pid }, [
      sampleStep('a', { status: 'completed', attempts: [sampleAttempt(1), sampleAttempt(2)] }),
      sampleStep('b', { status: status === 'running' ? 'running' : 'completed', attempts: [sampleAttempt(1)] }),
      sampleStep('c'),
    ]),
  );
  writeFileSync(join(store.attemptDir('a', 1), 'stdout'), 'a first try\n');
  writeFileSync(join(store.attemptDir('a', 2), 'stdout'), 'a second try\nline 2\n');
  writeFileSync(join(store.attemptDir('a', 2), 'stderr'), 'a warning\n');
  writeFileSync(join(store.attemptDir('b', 1), 'stdout'), 'b output\n');
  return { ...project, store };
}

/** Resolves once the process's stdout has contained `text`. */
function waitForOutput(child: ResultPromise, text: string): Promise<void> {
  let seen = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve();
    });
    child.catch(reject);
  });
}

describe('wave logs', () => {
  it("prints each step's latest attempt, stdout then stderr, headed by the step", async () => {
    const { dir } = projectWithLogs();
    const result = await runWave(['logs', RUN], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      ['==> a (attempt 2, stdout) <==', 'a second try', 'line 2', '', '==> a (attempt 2, stderr) <==', 'a warning', '', '==> b (attempt 1, stdout) <==', 'b output'].join('\n'),
    );
  });

  it('prints one step (its stderr marked), one attempt, only stdout, or only stderr', async () => {
    const { dir } = projectWithLogs();
    expect((await runWave(['logs', RUN, '--step', 'a'], { cwd: dir })).stdout).toBe('a second try\nline 2\n\n==> a (attempt 2, stderr) <==\na warning');
    expect((await runWave(['logs', RUN, '--step', 'a', '--stdout'], { cwd: dir })).stdout).toBe('a second try\nline 2');
    expect((await runWave(['logs', RUN, '--step', 'a', '--attempt', '1'], { cwd: dir })).stdout).toBe('a first try');
    expect((await runWave(['logs', 'hello-2024', '--step', 'a', '--stderr'], { cwd: dir })).stdout).toBe('a warning');
  });

  it('says when a step has no output yet', async () => {
    const { dir } = projectWithLogs();
    const result = await runWave(['logs', RUN, '--step', 'c'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`no output recorded for step c of run ${RUN}`);
    expect((await runWave(['logs', RUN, '--step', 'c', '--stdout'], { cwd: dir })).stderr).toBe(`no stdout recorded for step c of run ${RUN}`);
  });

  it('shows a step that wrote only to stderr, marked as stderr', async () => {
    const { dir, store } = projectWithLogs();
    writeFileSync(join(store.attemptDir('b', 1), 'stdout'), '');
    writeFileSync(join(store.attemptDir('b', 1), 'stderr'), 'make: *** No rule to make target `all`.\n');
    const result = await runWave(['logs', RUN, '--step', 'b'], { cwd: dir });
    expect(result.stdout).toBe('==> b (attempt 1, stderr) <==\nmake: *** No rule to make target `all`.');
    expect(result.stderr).toBe('');
  });

  it('rejects an unknown step, a missing attempt and --attempt without --step with exit 2', async () => {
    const { dir } = projectWithLogs();
    const unknown = await runWave(['logs', RUN, '--step', 'zzz'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`invalid_argument: run ${RUN} has no step \`zzz\``);
    expect(unknown.stderr).toContain('hint: Its steps: a, b, c.');
    const missing = await runWave(['logs', RUN, '--step', 'a', '--attempt', '3'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('hint: Its attempts: 1, 2.');
    const noStep = await runWave(['logs', RUN, '--attempt', '1'], { cwd: dir });
    expect(noStep.code).toBe(2);
    expect(noStep.stderr).toContain('--attempt needs --step');
    const noRun = await runWave(['logs', 'nope'], { cwd: dir });
    expect(noRun.code).toBe(2);
    expect(noRun.stderr).toContain('run_not_found');
  });

  it('--follow prints output as it grows, new attempts included, and stops when the run ends', async () => {
    const { dir, store } = projectWithLogs('running', process.pid);
    const follower = startWave(['logs', RUN, '--follow'], { cwd: dir });
    await waitForOutput(follower, 'b output\n');
    appendFileSync(join(store.dir, 'steps', 'b', 'attempt-1', 'stdout'), 'b more\n');
    await waitForOutput(follower, 'b more\n');
    // A retry starts: the follower switches to the new attempt.
    store.appendEvent({ v: EVENT_VERSION, ts: new Date().toISOString(), runId: RUN, type: 'step_started', stepId: 'b', attempt: 2, adapter: 'shell', workspace: store.dir });
    writeFileSync(join(store.attemptDir('b', 2), 'stdout'), 'b retried\n');
    await waitForOutput(follower, 'b retried\n');
    appendFileSync(join(store.dir, 'steps', 'b', 'attempt-2', 'stdout'), 'b last words\n');
    store.appendEvent({ v: EVENT_VERSION, ts: new Date().toISOString(), runId: RUN, type: 'run_finished', status: 'completed', durationMs: 1, tokens: { ...NO_TOKENS } });
    const result = await follower;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        '==> a (attempt 2, stdout) <==',
        'a second try',
        'line 2',
        '',
        '==> a (attempt 2, stderr) <==',
        'a warning',
        '',
        '==> b (attempt 1, stdout) <==',
        'b output',
        'b more',
        '',
        '==> b (attempt 2, stdout) <==',
        'b retried',
        'b last words',
      ].join('\n'),
    );
  });

  it('--follow shows the escapes of what grows as text, a character split between two writes whole', async () => {
    const { dir, store } = projectWithLogs('running', process.pid);
    const follower = startWave(['logs', RUN, '--step', 'b', '--follow'], { cwd: dir });
    await waitForOutput(follower, 'b output\n');
    const file = join(store.dir, 'steps', 'b', 'attempt-1', 'stdout');
    appendFileSync(file, Buffer.from([0xc3]));
    await new Promise((resolve) => setTimeout(resolve, 600));
    appendFileSync(file, Buffer.concat([Buffer.from([0xa9]), Buffer.from(`${ESCAPES.join('')}\n`)]));
    await waitForOutput(follower, 'OVERWRITE');
    store.appendEvent({ v: EVENT_VERSION, ts: new Date().toISOString(), runId: RUN, type: 'run_finished', status: 'completed', durationMs: 1, tokens: { ...NO_TOKENS } });
    const result = await follower;
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    expect(result.stdout).toBe('b output\né\\x1b[2J\\x1b[H\\x1b]0;PWNED-TITLE\\x07\\x1b[31m\\rOVERWRITE\\x9b2J\\u2028');
  });

  it('--follow of a run whose process is gone prints what there is and stops', async () => {
    const { dir } = projectWithLogs('running', 999_999_999);
    const result = await runWave(['logs', RUN, '--step', 'b', '--follow'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('b output');
  });
});

/** A run whose step `agent` ran Claude (stored stream and events) and whose step `b` ran a command. */
function projectWithAgent(status: 'completed' | 'running' = 'completed', pid?: number) {
  const project = sampleProject();
  const store = RunStore.create(
    project.runsRoot,
    sampleRecord(RUN, { status, pid }, [
      sampleStep('agent', { status: status === 'running' ? 'running' : 'completed', attempts: [{ ...sampleAttempt(1), adapter: 'claude', adapterType: 'claude' }] }),
      sampleStep('b', { status: 'completed', attempts: [{ ...sampleAttempt(1), adapter: 'command', adapterType: 'process' }] }),
    ]),
  );
  writeFileSync(join(store.attemptDir('agent', 1), 'stdout'), '{"type":"system","subtype":"init"}\n{"type":"result","result":"Two files."}\n');
  writeFileSync(join(store.attemptDir('b', 1), 'stdout'), 'b output\n');
  const events = join(store.dir, 'events.ndjson');
  const append = (...list: object[]) => appendFileSync(events, list.map((e) => `${JSON.stringify({ v: 1, ts: '2024-05-01T12:00:00.000Z', runId: RUN, ...e })}\n`).join(''));
  append(
    { type: 'step_started', stepId: 'agent', attempt: 1, adapter: 'claude', workspace: '/w' },
    { type: 'step_event', stepId: 'agent', attempt: 1, event: { kind: 'tool_use', id: 't', name: 'Bash', target: 'ls' } },
    { type: 'step_event', stepId: 'agent', attempt: 1, event: { kind: 'tool_result', id: 't', isError: false, content: 'a.ts\nb.ts' } },
  );
  return { ...project, store, append };
}

const FINISH = [
  { type: 'step_event', stepId: 'agent', attempt: 1, event: { kind: 'text', text: 'Two files.' } },
  {
    type: 'attempt_finished',
    stepId: 'agent',
    attempt: 1,
    adapter: 'claude',
    passed: true,
    exitCode: 0,
    durationMs: 1500,
    tokens: { input: 1200, output: 30, cacheRead: 0, cacheWrite: 0 },
    costUsd: 0.01,
    text: 'Two files.',
  },
];

const TRANSCRIPT = [
  `── attempt 1 · claude · started ${formatClock('2024-05-01T12:00:00.000Z')}`,
  '  tool  Bash ls',
  '    → a.ts',
  '      b.ts',
  '  assistant  Two files.',
  '── attempt 1 passed in 1.5s · 1.2k in / 30 out · $0.0100',
];

describe('wave logs of an agent step', () => {
  it('renders its transcript from the run events; --raw prints the stored stream; a command step prints its output', async () => {
    const { dir, append } = projectWithAgent();
    append(...FINISH);
    const step = await runWave(['logs', RUN, '--step', 'agent'], { cwd: dir });
    expect(step.stderr).toBe('');
    expect(step.stdout).toBe(TRANSCRIPT.join('\n'));
    expect((await runWave(['logs', RUN, '--step', 'agent', '--raw'], { cwd: dir })).stdout).toBe('{"type":"system","subtype":"init"}\n{"type":"result","result":"Two files."}');
    const all = await runWave(['logs', RUN], { cwd: dir });
    expect(all.stdout).toBe(['==> agent <==', ...TRANSCRIPT, '', '==> b (attempt 1, stdout) <==', 'b output'].join('\n'));
  });

  it('--follow renders the transcript as the events arrive, and the last message once the run ends', async () => {
    const { dir, store, append } = projectWithAgent('running', process.pid);
    const follower = startWave(['logs', RUN, '--step', 'agent', '--follow'], { cwd: dir });
    await waitForOutput(follower, '      b.ts\n');
    append(...FINISH);
    await waitForOutput(follower, '$0.0100\n');
    store.appendEvent({ v: EVENT_VERSION, ts: new Date().toISOString(), runId: RUN, type: 'run_finished', status: 'completed', durationMs: 1, tokens: { ...NO_TOKENS } });
    const result = await follower;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(TRANSCRIPT.join('\n'));
  });

  it('shows what the agent wrote with its escapes as text, and no line of it where an attempt’s line would be', async () => {
    const { dir, append } = projectWithAgent();
    const forged = `${ESCAPES.join('')}\n── attempt 9 passed in 0.1s`;
    append(
      { type: 'step_event', stepId: 'agent', attempt: 1, event: { kind: 'tool_use', id: 'u', name: 'Bash', target: `echo hi\n── attempt 9 passed in 0.1s\x1b[2J` } },
      { type: 'step_event', stepId: 'agent', attempt: 1, event: { kind: 'tool_result', id: 'u', isError: true, content: forged } },
      { type: 'step_event', stepId: 'agent', attempt: 1, event: { kind: 'retry', status: 529, message: `busy\n── attempt 9 passed` } },
      { type: 'step_event', stepId: 'agent', attempt: 1, event: { kind: 'text', text: forged } },
      { ...FINISH[1], text: forged },
    );
    const step = await runWave(['logs', RUN, '--step', 'agent'], { cwd: dir });
    expect(step.stdout).not.toMatch(RAW_CONTROL);
    const lines = step.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('──'))).toEqual([TRANSCRIPT[0], TRANSCRIPT.at(-1)]);
    expect(lines).toContain('  tool  Bash echo hi\\n── attempt 9 passed in 0.1s\\x1b[2J');
    expect(lines).toContain('  model request retried (HTTP 529): busy\\n── attempt 9 passed');
    expect(lines).toContain('  assistant  \\x1b[2J\\x1b[H\\x1b]0;PWNED-TITLE\\x07\\x1b[31m\\rOVERWRITE\\x9b2J\\u2028');
  });
});
